package config_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/ddlsim/ddlsim/model/config"
	_ "github.com/ddlsim/ddlsim/model/runner" // installs the assembly's schema
)

// leaf is one scalar of a scenario document: its --set path and its text.
type leaf struct{ path, value string }

func leaves(n *yaml.Node, prefix string, out *[]leaf) {
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			leaves(c, prefix, out)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			p := n.Content[i].Value
			if prefix != "" {
				p = prefix + "." + p
			}
			leaves(n.Content[i+1], p, out)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			leaves(c, fmt.Sprintf("%s[%d]", prefix, i), out)
		}
	case yaml.ScalarNode:
		*out = append(*out, leaf{prefix, n.Value})
	}
}

// TestSetAcceptsEveryDecodedPath walks every scalar of the shipped scenarios and checks that
// --set agrees with decode on it: setting a field to the value the file already gives loads
// the same scenario (config.Marshal byte for byte), so every path decode reads is one --set
// accepts, with the same units and the same kind-discriminated blocks.
func TestSetAcceptsEveryDecodedPath(t *testing.T) {
	files, _ := filepath.Glob("../../scenarios/*.yaml")
	more, _ := filepath.Glob("../../scenarios/faster-ddl/*.yaml")
	files = append(files, more...)
	if len(files) < 5 {
		t.Fatalf("found %d shipped scenarios", len(files))
	}
	n := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		base, err := config.LoadBytesWith(f, data, filepath.Dir(f), nil, nil)
		if err != nil {
			continue // not a scenario (a profile or a sweep file): not this test's subject
		}
		want, err := config.Marshal(base)
		if err != nil {
			t.Fatal(err)
		}
		var doc yaml.Node
		if err := yaml.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		var ls []leaf
		leaves(&doc, "", &ls)
		for _, l := range ls {
			if strings.HasPrefix(l.path, "sweep") {
				continue
			}
			n++
			sc, err := config.LoadBytesWith(f, data, filepath.Dir(f), []string{l.path + "=" + l.value}, nil)
			if err != nil {
				t.Errorf("%s: --set %s=%s refused: %v", filepath.Base(f), l.path, l.value, err)
				continue
			}
			got, err := config.Marshal(sc)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s: --set %s=%s loads a different scenario than the file itself", filepath.Base(f), l.path, l.value)
			}
		}
	}
	if n < 50 {
		t.Fatalf("walked only %d paths", n)
	}
	t.Logf("%d paths of %d files", n, len(files))
}
