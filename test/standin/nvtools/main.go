// Command nvtools stands in, inside the NVIDIA container stand-ins, for the
// programs devenv's plan runs there: tritonserver (it refuses a model
// repository that does not exist, as Triton does, and serves Triton's
// health, gRPC and metrics ports) and curl (the -sf URL form the Triton
// healthcheck uses). It is chosen by the name it is called as.
package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"
)

func main() {
	switch filepath.Base(os.Args[0]) {
	case "tritonserver":
		os.Exit(tritonserver(os.Args[1:]))
	case "curl":
		os.Exit(curl(os.Args[1:]))
	}
	fmt.Fprintf(os.Stderr, "nvtools: called as %q; link it as tritonserver or curl\n", os.Args[0])
	os.Exit(2)
}

func tritonserver(args []string) int {
	fs := flag.NewFlagSet("tritonserver", flag.ContinueOnError)
	repo := fs.String("model-repository", "", "")
	fs.Int("http-port", 8000, "")
	fs.Bool("allow-gpu-metrics", false, "")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *repo == "" {
		fmt.Fprintln(os.Stderr, "error: --model-repository must be specified")
		return 1
	}
	if st, err := os.Stat(*repo); err != nil || !st.IsDir() {
		fmt.Fprintf(os.Stderr, "E0101 model_repository_manager: failed to stat file %s\nerror: creating server: Internal - failed to stat file %s\n", *repo, *repo)
		return 1
	}
	fmt.Printf("I0101 server.cc: started tritonserver stand-in (models in %s, CPU fallback %q)\n", *repo, os.Getenv("DEVENV_CPU_FALLBACK"))
	http.HandleFunc("/v2/health/ready", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	http.HandleFunc("/v2/health/live", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	http.HandleFunc("/metrics", func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "nv_inference_count 0\n") })
	errs := make(chan error, 3)
	for _, port := range []string{"8000", "8001", "8002"} {
		ln, err := net.Listen("tcp", "0.0.0.0:"+port)
		if err != nil {
			fmt.Fprintln(os.Stderr, "error:", err)
			return 1
		}
		go func() { errs <- http.Serve(ln, nil) }()
	}
	fmt.Fprintln(os.Stderr, "error:", <-errs)
	return 1
}

// curl does what `curl -sf URL` does: exit 0 on a 2xx answer, 22 on an
// HTTP error, 7 when it cannot connect.
func curl(args []string) int {
	url := ""
	for _, a := range args {
		if len(a) > 0 && a[0] != '-' {
			url = a
		}
	}
	if url == "" {
		fmt.Fprintln(os.Stderr, "curl: no URL specified")
		return 2
	}
	c := &http.Client{Timeout: 5 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		return 7
	}
	defer func() { _ = resp.Body.Close() }()
	_, _ = io.Copy(os.Stdout, resp.Body)
	if resp.StatusCode >= 400 {
		return 22
	}
	return 0
}
