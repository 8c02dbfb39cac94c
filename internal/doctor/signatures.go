package doctor

import "github.com/devenv-dev/devenv/internal/lazy"

// SignatureNVMLLost is the finding of a container that lost its GPUs
// ("Failed to initialize NVML: Unknown Error"); up recreates such containers.
const SignatureNVMLLost = "nvml-lost"

// signatures are checked against every log line, in this order.
var signatures = []signature{
	{
		id:      "no-gpu-runtime",
		re:      lazy.Regexp(`could not select device driver "[^"]*" with capabilities: \[\[gpu`),
		meaning: "the Docker engine refused the GPU request: it has no NVIDIA GPU driver (NVIDIA Container Toolkit)",
		fix:     fixToolkit + "; or set `gpu: optional` to run on the CPU",
	},
	{
		id:      "cuda-requirement",
		re:      lazy.Regexp(`nvidia-container-cli: requirement error: unsatisfied condition: cuda\s*>=`),
		meaning: "the image's NVIDIA_REQUIRE_CUDA asks for a newer CUDA than the host driver supports, so the container was not started",
		fix:     "upgrade the NVIDIA driver (see `devenv doctor`), or lock an older CUDA (`cuda:` in devenv.yaml, then `devenv lock`)",
	},
	{
		id: "driver-mismatch",
		re: lazy.Regexp(`cudaErrorInsufficientDriver|CUDA driver version is insufficient for CUDA runtime version|` +
			`forward compatibility was attempted on non supported HW|cudaErrorCompatNotSupportedOnDevice|` +
			`system has unsupported display driver / cuda driver combination`),
		meaning: "CUDA in the container is newer than the host's NVIDIA driver can run (GpuDeviceManager / cuDF could not initialise CUDA)",
		fix:     "run `devenv doctor` to see the driver each service needs; upgrade the driver, or lock an older CUDA and `devenv up --build`",
	},
	{
		id: SignatureNVMLLost,
		re: lazy.Regexp(`Failed to initialize NVML: Unknown Error`),
		meaning: "the container lost its GPUs while running: on hosts whose Docker uses the systemd cgroup driver, a " +
			"`systemctl daemon-reload` (package upgrades run one) drops the GPU devices from running containers' cgroups",
		fix: "`devenv up` recreates the service's container; to stop it recurring, run the NVIDIA runtime in CDI mode " +
			"(`sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml`) or give dockerd `\"exec-opts\": [\"native.cgroupdriver=cgroupfs\"]`",
	},
	{
		id: "runtime-without-gpu",
		re: lazy.Regexp(`nvidia-container-cli: (initialization|device) error|No devices were found|unresolvable CDI devices`),
		meaning: "the NVIDIA container runtime is there but found no usable GPU on the engine's machine " +
			"(driver not loaded, a GPU fallen off the bus, or a CDI spec naming devices that are gone)",
		fix: "on the engine's machine `nvidia-smi` must list the GPUs (load the driver or reboot); after a driver change regenerate the CDI spec " +
			"(`sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml`); `devenv doctor` shows what the engine sees",
	},
	{
		id:      "no-cuda-device",
		re:      lazy.Regexp(`cudaErrorNoDevice|no CUDA-capable device is detected`),
		meaning: "the container sees no GPU: it was started without a GPU request or NVIDIA_VISIBLE_DEVICES hides them",
		fix:     "check `gpus:` of the service and `devenv gpus`; inside the container `nvidia-smi -L` must list a GPU",
	},
	{
		id:      "rapids-plugin-missing",
		re:      lazy.Regexp(`ClassNotFoundException:?\s+com\.nvidia\.spark\.SQLPlugin`),
		meaning: "spark.plugins names the RAPIDS Accelerator but its jar is not on the classpath (missing, or built for another Scala version)",
		fix:     "rebuild the image with `devenv up --build`; if you set spark.jars or spark.driver.extraClassPath yourself, keep the rapids-4-spark jar on it and match its _2.12/_2.13 suffix to Spark's Scala",
	},
	{
		id:      "rapids-disabled",
		re:      lazy.Regexp(`(?i)RAPIDS Accelerator is disabled|spark\.rapids\.sql\.enabled\s*(=|:|is|to)\s*"?false`),
		meaning: "the RAPIDS Accelerator is loaded but switched off, so every operator runs on the CPU",
		fix:     "remove spark.rapids.sql.enabled=false from `conf:` (devenv sets it only for a CPU fallback of `gpu: optional`; `devenv doctor` says why there is no GPU)",
	},
	{
		id: "gpu-oom",
		re: lazy.Regexp(`GpuOutOfMemoryError|GpuRetryOOM|GpuSplitAndRetryOOM|RMM failure.*out[_ ]of[_ ]memory|` +
			`std::bad_alloc: out_of_memory|CUDA error: out of memory|CUDA out of memory|cudaErrorMemoryAllocation`),
		meaning: "the GPU ran out of memory: another process holds it, or the share given to this service is too small for the data",
		fix:     "see who holds GPU memory with `devenv top`; give the service its own GPU (`gpus: [index]`), lower spark.rapids.sql.concurrentGpuTasks or spark.rapids.sql.batchSizeBytes",
	},
	{
		id: "gpu-discovery",
		re: lazy.Regexp(`No GPUs found|Couldn't find GPU resources|` +
			`(?i)discovery ?script.*(fail|error|not found|no such file|exit code|permission denied|didn't return|didn't specify)`),
		meaning: "Spark could not find GPUs for its executors: the discovery script is missing, failed, or found no GPU in the container",
		fix:     "let devenv set spark.{driver,executor}.resource.gpu.discoveryScript (remove your own), check the service has `gpus:`, and that `nvidia-smi` works inside it",
	},
	{
		id: "triton-model-load",
		re: lazy.Regexp(`failed to load '[^']+' version|failed to load all models|` +
			`\|\s*UNAVAILABLE: |Poll failed for model directory|failed to stat file`),
		meaning: "Triton could not load a model from its model repository (layout, config.pbtxt or backend problem)",
		fix:     "check models/<name>/config.pbtxt and models/<name>/<version>/<model file>; the first 'E' line above the model table names the cause; `--exit-on-error=false` keeps the server up meanwhile",
	},
	{
		id:      "missing-shim",
		re:      lazy.Regexp(`Could not find Spark Shim Loader for|Could not load shims in|(?i)no shim (found|available) for`),
		meaning: "the RAPIDS Accelerator jar has no shim for this Spark build (a vendor Spark such as Databricks or EMR needs its own jar, or the Spark version is newer than the jar)",
		fix:     "lock a RAPIDS release that supports this Spark (`devenv profiles` lists them) or the Spark version prod runs; for Databricks use the jar built for its runtime",
	},
	{
		id: "pinned-pool",
		re: lazy.Regexp(`(?i)(pinned ?memory ?pool|PinnedMemoryPool|pinned host memory)[^\n]*(fail|error|unable|could not|cannot|exhausted|out of)|` +
			`(?i)(fail|unable|could not|cannot)[^\n]*allocate[^\n]*pinned`),
		meaning: "the pinned host memory pool (spark.rapids.memory.pinnedPool.size) could not be allocated or ran out",
		fix:     "lower spark.rapids.memory.pinnedPool.size, or raise the container's memory (and spark.executor.memoryOverhead on YARN/Kubernetes) to hold it",
	},
	{
		id:      "gpu-fallback",
		re:      lazy.Regexp(`!(Exec|Expression|Partitioning|Output) <[^>]+> cannot run on GPU`),
		meaning: "an operator ran on the CPU inside a GPU plan: the RAPIDS Accelerator does not support it (or its data types) here",
		fix:     "set spark.rapids.sql.explain=NOT_ON_GPU to see why; check the operator and types against the RAPIDS supported-operators list, or enable it with its spark.rapids.sql.* switch when it is off by default",
	},
}
