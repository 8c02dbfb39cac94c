package doctor

import "github.com/devenv-dev/devenv/internal/lazy"

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
}
