package sim

import "testing"

func TestTimeString(t *testing.T) {
	for _, c := range []struct {
		t    Time
		want string
	}{
		{0, "0ns"},
		{1, "1ns"},
		{999, "999ns"},
		{Microsecond, "1µs"},
		{12500, "12.5µs"},
		{1500 * Microsecond, "1.5ms"},
		{1234567, "1.234ms"}, // truncated, not rounded
		{999999999, "999.999ms"},
		{2 * Second, "2.000s"},
		{2*Second + 5*Millisecond, "2.005s"},
		{59*Second + 999*Millisecond + 999, "59.999s"},
		{Minute, "1m0s"},
		{200 * Second, "3m20s"},
		{200*Second + 500*Millisecond, "3m20.5s"},
		{Hour + 2*Minute + 3*Second, "1h2m3s"},
		{25 * Hour, "25h0m0s"},
		{-1500 * Microsecond, "-1.5ms"},
		{Forever, "2562047h47m16.854s"},
		{-Forever - 1, "-2562047h47m16.854s"},
	} {
		if got := c.t.String(); got != c.want {
			t.Errorf("Time(%d).String() = %q, want %q", int64(c.t), got, c.want)
		}
	}
}

func TestTimeSeconds(t *testing.T) {
	if got := (1500 * Millisecond).Seconds(); got != 1.5 {
		t.Fatalf("Seconds = %v", got)
	}
}
