package profiles

import "strings"

// dataCenterBrands are NVML brands (nvmlBrandType, as the gpu package
// names them) that only data-center boards report.
var dataCenterBrands = []string{"Tesla", "NVIDIA VCS", "NVIDIA VPC", "GRID"}

// consumerBrands are NVML brands of consumer and workstation boards.
var consumerBrands = []string{"GeForce", "GeForce RTX", "Titan", "Titan RTX", "Quadro", "Quadro RTX", "NVIDIA RTX", "NVS"}

// dataCenterProducts are the product names of data-center GPUs (NVIDIA's
// data-center line: Hopper, Blackwell, Ampere, Ada, Turing and Volta boards
// sold for servers), matched as whole words of NVML's device name. NVML's
// brand for recent boards is the plain "NVIDIA", so the name decides there.
var dataCenterProducts = []string{"H100", "H200", "H20", "H800", "GH200", "B100", "B200", "B300", "GB200", "GB300",
	"A100", "A800", "A30", "A40", "A10", "A10G", "A16", "A2", "L40", "L40S", "L4", "L20", "T4", "V100", "P100", "P40", "P4"}

// DataCenterGPU reports whether a GPU, by NVML's brand or its product name,
// is a data-center GPU: one that runs a whole CUDA family from the family's
// driver floor (minor-version compatibility) and takes NGC's forward
// compatibility package. A consumer or workstation brand is never one.
func DataCenterGPU(brand, name string) bool {
	for _, b := range consumerBrands {
		if strings.EqualFold(brand, b) {
			return false
		}
	}
	for _, b := range dataCenterBrands {
		if strings.EqualFold(brand, b) {
			return true
		}
	}
	upper := strings.ToUpper(name)
	if strings.Contains(upper, "GEFORCE") || strings.Contains(upper, "LAPTOP") {
		return false
	}
	words := strings.Fields(strings.NewReplacer("-", " ", "_", " ").Replace(upper))
	for _, w := range words {
		for _, p := range dataCenterProducts {
			if w == p {
				return true
			}
		}
	}
	return false
}

// AllDataCenter reports whether every GPU of a host is a data-center GPU
// (none: false), with the names that decided it.
func AllDataCenter(gpus []GPUModel) bool {
	if len(gpus) == 0 {
		return false
	}
	for _, g := range gpus {
		if !DataCenterGPU(g.Brand, g.Name) {
			return false
		}
	}
	return true
}

// GPUModel is what the driver rule reads of one GPU: NVML's brand and name.
type GPUModel struct {
	Brand string
	Name  string
}
