//go:build linux

package k8s

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// InstallCRD creates the CustomResourceDefinition in file (named name)
// with a server-side apply, as a CRD of the Spark Operator's size is
// larger than client-side apply's annotation may hold, and waits until
// the API server reports it Established: served, so objects of its kind
// are validated against its schema.
func (c *Cluster) InstallCRD(ctx context.Context, file, name string) error {
	if out, errOut, err := c.Kubectl(ctx, "apply", "--server-side", "-f", file); err != nil {
		return fmt.Errorf("kubectl apply --server-side -f %s: %w\n%s%s", file, err, out, errOut)
	}
	url := c.URL + "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + name
	last, err := poll(ctx, nil, func() (bool, string) {
		body, err := get(c.httpClient(), url)
		if err != nil {
			return false, err.Error()
		}
		return established(body), body
	})
	if err != nil {
		return fmt.Errorf("the CRD %s is not Established: %w; last answer: %.500s", name, err, last)
	}
	return nil
}

// established reports whether get's answer for a CRD has the condition
// Established True.
func established(answer string) bool {
	status, body, _ := strings.Cut(answer, " ")
	if status != "200" {
		return false
	}
	var crd struct {
		Status struct {
			Conditions []struct{ Type, Status string } `json:"conditions"`
		} `json:"status"`
	}
	if json.Unmarshal([]byte(body), &crd) != nil {
		return false
	}
	for _, cond := range crd.Status.Conditions {
		if cond.Type == "Established" && cond.Status == "True" {
			return true
		}
	}
	return false
}
