package fastup

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"
)

// maxAnswer bounds every engine answer read, as devenv's own client does.
const maxAnswer = 8 << 20

// engineClient asks a local engine the three questions the check needs,
// over its unix socket, with no API version in the path: the fields read
// (ids, names, state, labels, network ids, image ids, CPUs, memory) mean
// the same in every version an engine since 20.10 speaks.
type engineClient struct {
	http *http.Client
}

func newEngineClient(socket string) *engineClient {
	dial := func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "unix", socket)
	}
	return &engineClient{http: &http.Client{Transport: &http.Transport{DialContext: dial, DisableCompression: true}}}
}

func (c *engineClient) get(ctx context.Context, path string, query url.Values, out any) error {
	u := url.URL{Scheme: "http", Host: "docker", Path: path, RawQuery: query.Encode()}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer+1))
	if err != nil {
		return err
	}
	if len(body) > maxAnswer {
		return fmt.Errorf("GET %s: the engine's answer is over %d bytes", path, maxAnswer)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", path, resp.Status)
	}
	return json.Unmarshal(body, out)
}

// listed is a container as the engine's listing reports it.
type listed struct {
	ID              string            `json:"Id"`
	Names           []string          `json:"Names"`
	Image           string            `json:"Image"`
	State           string            `json:"State"`
	Labels          map[string]string `json:"Labels"`
	NetworkSettings struct {
		Networks map[string]struct {
			NetworkID string `json:"NetworkID"`
		} `json:"Networks"`
	} `json:"NetworkSettings"`
}

func (c *engineClient) containers(ctx context.Context, label string) ([]listed, error) {
	f, _ := json.Marshal(map[string][]string{"label": {label}})
	var out []listed
	err := c.get(ctx, "/containers/json", url.Values{"all": {"1"}, "filters": {string(f)}}, &out)
	return out, err
}

func (c *engineClient) imageID(ctx context.Context, ref string) (string, error) {
	var out struct {
		ID string `json:"Id"`
	}
	err := c.get(ctx, "/images/"+ref+"/json", nil, &out)
	return out.ID, err
}

func (c *engineClient) machine(ctx context.Context) (Machine, error) {
	var out struct {
		NCPU     int   `json:"NCPU"`
		MemTotal int64 `json:"MemTotal"`
	}
	err := c.get(ctx, "/info", nil, &out)
	return Machine{CPUs: out.NCPU, Memory: out.MemTotal}, err
}

// checkTimeout bounds the whole engine check: an engine slower than this
// is left to devenv's full program and its own timeouts and messages.
const checkTimeout = 5 * time.Second
