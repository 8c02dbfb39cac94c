package profiles

import (
	"strings"
	"testing"
)

// TestPreferKeepsProdsExactStack: prod's versions win over newer ones
// whenever the catalog builds them together; otherwise the nearest, each
// deviation with its reason, and a changed Spark line or Scala is major.
func TestPreferKeepsProdsExactStack(t *testing.T) {
	c := frozen() // a release the catalog gains changes no expectation here
	type want struct{ spark, scala, java, python, rapids string }
	tests := []struct {
		name   string
		req    Request
		prefer Prefer
		want   want
		devs   []string // "field prod->local major" and a fragment of the reason
	}{
		{"java 8 prod keeps java 8", Request{}, Prefer{Spark: "3.5.1", Scala: "2.12", Java: "8"},
			want{"3.5.1", "2.12", "8", "3.10", "26.10.0"}, nil},
		{"rapids 24.06 prod keeps 24.06", Request{}, Prefer{Spark: "3.4.1", Scala: "2.12", Java: "8", Rapids: "24.06.0"},
			want{"3.4.1", "2.12", "8", "3.10", "24.06.0"}, nil},
		{"spark 4 scala 2.13 prod keeps them", Request{}, Prefer{Spark: "4.0.1", Scala: "2.13", Java: "17", Python: "3.12.3"},
			want{"4.0.1", "2.13", "17", "3.12", "26.10.0"}, nil},
		{"java 21 on spark 4.1", Request{}, Prefer{Spark: "4.1.1", Scala: "2.13", Java: "21"},
			want{"4.1.1", "2.13", "21", "3.10", "26.10.0"}, nil},
		{"java 11 and python 3.11", Request{}, Prefer{Spark: "3.3.2", Scala: "2.12", Java: "11", Python: "3.11"},
			want{"3.3.2", "2.12", "11", "3.11", "26.10.0"}, nil},
		{"spark 2.4 has no rapids release", Request{}, Prefer{Spark: "2.4.4", Scala: "2.11", Java: "8"},
			want{"3.2.4", "2.12", "8", "3.10", "25.12.0"},
			[]string{"spark 2.4.4->3.2.4 major: no RAPIDS Accelerator release in devenv's catalog supports Spark 2.4", "scala 2.11->2.12 major: built for Scala 2.12"}},
		{"spark patch not supported by the release: spark wins", Request{}, Prefer{Spark: "3.5.2", Scala: "2.12", Java: "8", Rapids: "24.06.0"},
			want{"3.5.2", "2.12", "8", "3.10", "24.10.0"}, []string{"rapids 24.06.0->24.10.0: does not support Spark 3.5.2"}},
		{"java 8 on spark 4 is nearest 17", Request{}, Prefer{Spark: "4.0.0", Scala: "2.13", Java: "8"},
			want{"4.0.0", "2.13", "17", "3.10", "26.10.0"}, []string{"java 8->17: runs on Java 17 or 21"}},
		{"python 3.8 nearest 3.10", Request{}, Prefer{Spark: "3.3.0", Scala: "2.12", Java: "8", Python: "3.8"},
			want{"3.3.0", "2.12", "8", "3.10", "26.10.0"}, []string{"python 3.8->3.10: offer Python 3.10, 3.11 or 3.12"}},
		{"snapshot rapids", Request{}, Prefer{Spark: "3.2.1", Scala: "2.12", Java: "8", Rapids: "22.04.0-SNAPSHOT"},
			want{"3.2.1", "2.12", "8", "3.10", "24.02.0"}, []string{"rapids 22.04.0-SNAPSHOT->24.02.0: snapshot build"}},
		{"devenv.yaml pins win and say so", Request{Java: "17"}, Prefer{Spark: "3.5.1", Scala: "2.12", Java: "8"},
			want{"3.5.1", "2.12", "17", "3.10", "26.10.0"}, []string{"java 8->17: devenv.yaml pins java 17"}},
		{"devenv.yaml's python and cuda with prod's java", Request{Python: "3.10", CUDA: "12.9.1"}, Prefer{Spark: "3.5.1", Scala: "2.12", Java: "17", Rapids: "25.08.0"},
			want{"3.5.1", "2.12", "17", "3.10", "25.08.0"}, nil},
		{"python 3 says nothing", Request{}, Prefer{Spark: "3.3.0", Scala: "2.12", Java: "8", Python: "3"},
			want{"3.3.0", "2.12", "8", "3.10", "26.10.0"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := tt.req
			req.Profile, req.Prefer = SparkRapids, &tt.prefer
			r, err := c.Resolve(req, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := want{r.Spark, r.Scala, r.Java, r.Python, r.Rapids}
			if got != tt.want {
				t.Errorf("resolved %+v, want %+v", got, tt.want)
			}
			if len(r.Deviations) != len(tt.devs) {
				t.Fatalf("deviations %+v, want %d: %v", r.Deviations, len(tt.devs), tt.devs)
			}
			for i, d := range r.Deviations {
				head := d.Field + " " + d.Prod + "->" + d.Local
				if d.Major {
					head += " major"
				}
				wantHead, wantWhy, _ := strings.Cut(tt.devs[i], ": ")
				if head != wantHead || !strings.Contains(d.Why, wantWhy) {
					t.Errorf("deviation %d = %q (%s), want %q (... %s ...)", i, head, d.Why, wantHead, wantWhy)
				}
			}
		})
	}
}
