-- Histograms of sysbench 1.0.20's own random generators (src/sb_rand.c through its Lua API),
-- the reference rand_test.go compares the model's generators with. Regenerate:
--
--   sysbench --threads=1 --events=1 --rand-seed=1 model/workload/testdata/sbrand.lua run \
--     | grep '^band' > model/workload/testdata/sbrand-1.0.20.tsv
--
-- Each line: band <TAB> dist <TAB> lo <TAB> hi <TAB> count: how many of N draws of
-- sysbench.rand.<dist>(1, n) fell in [lo, hi) after subtracting 1 (row numbers, as the model's
-- Keys return them). Defaults of 1.0.20: --rand-spec-iter=12 --rand-spec-pct=1
-- --rand-spec-res=75 --rand-pareto-h=0.2. sysbench 1.0.20 has no zipfian (`sysbench --help`:
-- --rand-type {uniform,gaussian,special,pareto}); rand_test.go checks the model's zipfian (the
-- generator of later sysbench) against its C transcription and the Zipf law instead.
local n = 1000000
local N = 2000000

local function edges_equal(k)
  local e = {}
  for i = 0, k do e[#e + 1] = math.floor(n * i / k) end
  return e
end

local function edges_special()
  -- 100 equal bands, with [0.49 n, 0.51 n) split into 40 bands of n/2000
  local e = {}
  for i = 0, 48 do e[#e + 1] = math.floor(n * i / 100) end
  for i = 0, 39 do e[#e + 1] = math.floor(0.49 * n + i * n / 2000) end
  for i = 51, 100 do e[#e + 1] = math.floor(n * i / 100) end
  return e
end

local function run(dist, f, e)
  local counts = {}
  for i = 1, #e - 1 do counts[i] = 0 end
  for _ = 1, N do
    local v = f(1, n) - 1
    -- binary search for the band
    local lo, hi = 1, #e - 1
    while lo < hi do
      local mid = math.floor((lo + hi + 1) / 2)
      if v >= e[mid] then lo = mid else hi = mid - 1 end
    end
    counts[lo] = counts[lo] + 1
  end
  for i = 1, #e - 1 do
    print(string.format("band\t%s\t%d\t%d\t%d", dist, e[i], e[i + 1], counts[i]))
  end
end

function event()
  run("uniform", sysbench.rand.uniform, edges_equal(100))
  run("gaussian", sysbench.rand.gaussian, edges_equal(100))
  run("special", sysbench.rand.special, edges_special())
  run("pareto", sysbench.rand.pareto, edges_equal(100))
end
