//go:build linux && cgo

package gpu

import "github.com/NVIDIA/go-nvml/pkg/nvml"

// brandNames are NVML's product brands (nvmlBrandType) as nvidia-smi -q
// prints them under "Product Brand".
var brandNames = map[nvml.BrandType]string{
	nvml.BRAND_QUADRO:              "Quadro",
	nvml.BRAND_TESLA:               "Tesla",
	nvml.BRAND_NVS:                 "NVS",
	nvml.BRAND_GRID:                "GRID",
	nvml.BRAND_GEFORCE:             "GeForce",
	nvml.BRAND_TITAN:               "Titan",
	nvml.BRAND_NVIDIA_VAPPS:        "NVIDIA Virtual Applications",
	nvml.BRAND_NVIDIA_VPC:          "NVIDIA VPC",
	nvml.BRAND_NVIDIA_VCS:          "NVIDIA VCS",
	nvml.BRAND_NVIDIA_VWS:          "NVIDIA VWS",
	nvml.BRAND_NVIDIA_CLOUD_GAMING: "NVIDIA Cloud Gaming",
	nvml.BRAND_QUADRO_RTX:          "Quadro RTX",
	nvml.BRAND_NVIDIA_RTX:          "NVIDIA RTX",
	nvml.BRAND_NVIDIA:              "NVIDIA",
	nvml.BRAND_GEFORCE_RTX:         "GeForce RTX",
	nvml.BRAND_TITAN_RTX:           "Titan RTX",
}

// BrandName is NVML's brand as text; "" when unknown.
func BrandName(b nvml.BrandType) string { return brandNames[b] }
