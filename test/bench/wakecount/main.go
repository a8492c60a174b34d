// Command wakecount measures a wake of the Go core in a way the machine's
// load does not change: it counts the instructions Node executes
// (valgrind --tool=callgrind) to run webbrain.wasm from start to its first
// reply, the way a stopped worker does (wake.js: the jsplatform tests'
// fake extension API, the real jsglue/host.js, one settings_get from the
// side panel). V8 compiles a wasm function on its first call in Node as in
// Chrome, so the count includes compiling what the first message runs.
// Each module is counted to Go ready (runtime start and package init) and
// to the first reply, beside Node running nothing; repeated counts agree
// to within about 0.5 %. It also prints the median wall-clock steps of
// -n plain runs and the package init of the module's own packages
// (GODEBUG=inittrace=1), which the load does change.
//
//	go run ./test/bench/wakecount [-n 5] [-action settings_get] [-configured] [module.wasm ...]
//
// Without modules it builds the working tree's module as build.sh does.
// Give an earlier commit's module too to compare the two in one run.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/webbrain/webbrain/test/testenv"
)

func main() {
	runs := flag.Int("n", 5, "plain (wall-clock) runs per module")
	action := flag.String("action", "", "the first message's action (default settings_get)")
	configured := flag.Bool("configured", false, "store a configured user's settings and panel header before the wake")
	noCount := flag.Bool("no-callgrind", false, "skip the instruction counts")
	flag.Parse()
	log.SetFlags(0)
	root, err := testenv.RepoRoot()
	if err != nil {
		log.Fatal(err)
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		log.Fatal(err)
	}
	wasmExec := filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js")
	modules := flag.Args()
	if len(modules) == 0 {
		out := filepath.Join(os.TempDir(), "wakecount-webbrain.wasm")
		build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", out, "./wasm/cmd/webbrain")
		build.Dir, build.Env = root, append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		if b, err := build.CombinedOutput(); err != nil {
			log.Fatalf("go build: %v\n%s", err, b)
		}
		modules = []string{out}
	}
	env := []string{}
	if *action != "" {
		env = append(env, "WAKE_ACTION="+*action)
	}
	if *configured {
		env = append(env, "WAKE_CONFIGURED=1")
	}
	script := filepath.Join(root, "test", "bench", "wakecount", "wake.js")
	node := func(extra []string, args ...string) *exec.Cmd {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Env = append(append(os.Environ(), env...), extra...)
		return cmd
	}
	wake := func(m string) []string { return []string{"node", script, root, m, wasmExec} }

	if !*noCount {
		// Two at a time: the machine has two cores, and counts do not
		// depend on what else runs.
		type job struct {
			name string
			cmd  *exec.Cmd
		}
		jobs := []job{{"node, nothing to run", node(nil, "node", "-e", "0")}}
		for _, m := range modules {
			jobs = append(jobs,
				job{m + ": to Go ready", node([]string{"WAKE_ONLY_INIT=1"}, append(callgrind(), wake(m)...)...)},
				job{m + ": to first reply", node(nil, append(callgrind(), wake(m)...)...)})
		}
		jobs[0].cmd = node(nil, append(callgrind(), "node", "-e", "0")...)
		counts := make([]int64, len(jobs))
		var wg sync.WaitGroup
		sem := make(chan struct{}, 2)
		for i, j := range jobs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				out, err := j.cmd.CombinedOutput()
				counts[i] = collected(out)
				if err != nil || counts[i] == 0 {
					log.Fatalf("%s: %v\n%s", j.name, err, out)
				}
			}()
		}
		wg.Wait()
		fmt.Println("instructions (callgrind, Node), millions; less Node's own start in brackets")
		for i, j := range jobs {
			fmt.Printf("  %-60s %6d M  (%d M)\n", j.name, counts[i]/1e6, (counts[i]-counts[0])/1e6)
		}
		for i, m := range modules {
			ready, reply := counts[1+2*i], counts[2+2*i]
			fmt.Printf("  %s: Go ready → first reply %d M\n", m, (reply-ready)/1e6)
		}
	}

	for _, m := range modules {
		steps := map[string][]float64{}
		for range *runs {
			out, err := node(nil, wake(m)...).Output()
			if err != nil {
				log.Fatalf("%s: %v\n%s", m, err, out)
			}
			var marks map[string]float64
			if err := json.Unmarshal(lastLine(out), &marks); err != nil {
				log.Fatalf("%s: %v\n%s", m, err, out)
			}
			for k, v := range marks {
				steps[k] = append(steps[k], v)
			}
		}
		fmt.Printf("%s: wall clock, median of %d runs, ms since the script's start:", m, *runs)
		for _, k := range []string{"glue", "compiled", "instantiated", "goMain", "goReady", "firstReply"} {
			if v := steps[k]; len(v) > 0 {
				slices.Sort(v)
				fmt.Printf(" %s %.1f", k, v[len(v)/2])
			}
		}
		fmt.Println()
		out, _ := node([]string{"GODEBUG=inittrace=1", "WAKE_ONLY_INIT=1"}, wake(m)...).CombinedOutput()
		ours, all, n := initTotals(out)
		fmt.Printf("%s: package init %.1f ms, %.1f ms of it in the module's own packages (%d packages)\n", m, all, ours, n)
	}
}

func callgrind() []string {
	return []string{"valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"}
}

var collectedRE = regexp.MustCompile(`Collected : (\d+)`)

func collected(out []byte) int64 {
	m := collectedRE.FindSubmatch(out)
	if m == nil {
		return 0
	}
	n, _ := strconv.ParseInt(string(m[1]), 10, 64)
	return n
}

func lastLine(out []byte) []byte {
	lines := bytes.Split(bytes.TrimSpace(out), []byte("\n"))
	return lines[len(lines)-1]
}

// initTotals sums the clock of each package's init:
// "init github.com/webbrain/webbrain/wasm/guard @79 ms, 2.8 ms clock, 17800 bytes, 60 allocs".
func initTotals(out []byte) (ours, all float64, n int) {
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(strings.ReplaceAll(sc.Text(), ",", ""))
		if len(f) != 11 || f[0] != "init" || f[6] != "clock" {
			continue
		}
		ms, _ := strconv.ParseFloat(f[4], 64)
		all += ms
		if strings.HasPrefix(f[1], "github.com/webbrain/") {
			ours += ms
			n++
		}
	}
	return ours, all, n
}
