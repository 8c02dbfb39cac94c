// Command k8s is kube-apiserver and kubectl of one Kubernetes release in one
// binary, for the e2e tests: `k8s kube-apiserver FLAGS` or `k8s kubectl ARGS`.
// Their cobra commands are the ones the release's own mains run.
package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/logs/json/register"
	kubectl "k8s.io/kubectl/pkg/cmd"
	kubectlutil "k8s.io/kubectl/pkg/cmd/util"
	apiserver "k8s.io/kubernetes/cmd/kube-apiserver/app"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: k8s kube-apiserver|kubectl ARGS...")
		os.Exit(2)
	}
	name, args := os.Args[1], os.Args[2:]
	switch name {
	case "kube-apiserver":
		os.Exit(cli.Run(withArgs(apiserver.NewAPIServerCommand(), args)))
	case "kubectl":
		if err := cli.RunNoErrOutput(withArgs(kubectl.NewDefaultKubectlCommand(), args)); err != nil {
			kubectlutil.CheckErr(err)
		}
	default:
		fmt.Fprintf(os.Stderr, "k8s: unknown command %q (kube-apiserver or kubectl)\n", name)
		os.Exit(2)
	}
}

func withArgs(cmd *cobra.Command, args []string) *cobra.Command {
	cmd.SetArgs(args)
	return cmd
}
