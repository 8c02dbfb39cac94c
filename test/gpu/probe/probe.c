/*
 * probe: what the GPU end-to-end suite runs inside a service's container to
 * see what the GPU really did. It dlopens libcuda.so.1 (the driver that the
 * NVIDIA Container Toolkit mounts), so it needs no CUDA headers or toolkit:
 * the few driver API functions it calls are declared below.
 *
 *   probe uuids              one line per visible GPU: "gpu INDEX GPU-UUID NAME"
 *   probe alloc BYTES SECS   create a context on GPU 0, allocate BYTES, hold
 *                            them SECS seconds; BYTES may be env:NAME (read
 *                            from the environment) or frac:F (F x total memory)
 *   probe hold SECS          create a context on GPU 0 and keep it SECS seconds
 *
 * Every failure prints "probe: CALL: CUDA error: TEXT (NAME)" and exits 2.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int CUresult;
typedef int CUdevice;
typedef void *CUcontext;
typedef unsigned long long CUdeviceptr;
typedef struct { unsigned char bytes[16]; } CUuuid;

static CUresult (*cuInit)(unsigned int);
static CUresult (*cuDeviceGetCount)(int *);
static CUresult (*cuDeviceGet)(CUdevice *, int);
static CUresult (*cuDeviceGetName)(char *, int, CUdevice);
static CUresult (*cuDeviceGetUuid)(CUuuid *, CUdevice);
static CUresult (*cuDeviceTotalMem)(size_t *, CUdevice);
static CUresult (*cuCtxCreate)(CUcontext *, unsigned int, CUdevice);
static CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
static CUresult (*cuGetErrorName)(CUresult, const char **);
static CUresult (*cuGetErrorString)(CUresult, const char **);

static const char *libs[] = {
	"libcuda.so.1",
	"/usr/local/nvidia/lib64/libcuda.so.1",
	"/usr/lib/x86_64-linux-gnu/libcuda.so.1",
	"/usr/lib64/libcuda.so.1",
};

static void *sym(void *h, const char *name) {
	void *p = dlsym(h, name);
	if (!p) {
		printf("probe: libcuda has no %s: %s\n", name, dlerror());
		exit(2);
	}
	return p;
}

static void load(void) {
	void *h = NULL;
	for (size_t i = 0; i < sizeof libs / sizeof libs[0] && !h; i++)
		h = dlopen(libs[i], RTLD_NOW);
	if (!h) {
		printf("probe: cannot load libcuda.so.1 (%s): this container was given no NVIDIA driver\n", dlerror());
		exit(2);
	}
	*(void **)&cuInit = sym(h, "cuInit");
	*(void **)&cuDeviceGetCount = sym(h, "cuDeviceGetCount");
	*(void **)&cuDeviceGet = sym(h, "cuDeviceGet");
	*(void **)&cuDeviceGetName = sym(h, "cuDeviceGetName");
	*(void **)&cuDeviceGetUuid = sym(h, "cuDeviceGetUuid_v2");
	*(void **)&cuDeviceTotalMem = sym(h, "cuDeviceTotalMem_v2");
	*(void **)&cuCtxCreate = sym(h, "cuCtxCreate_v2");
	*(void **)&cuMemAlloc = sym(h, "cuMemAlloc_v2");
	*(void **)&cuGetErrorName = sym(h, "cuGetErrorName");
	*(void **)&cuGetErrorString = sym(h, "cuGetErrorString");
}

static void check(CUresult r, const char *call) {
	const char *name = "?", *text = "?";
	if (r == 0)
		return;
	cuGetErrorName(r, &name);
	cuGetErrorString(r, &text);
	printf("probe: %s: CUDA error: %s (%s)\n", call, text, name);
	fflush(stdout);
	exit(2);
}

static void uuids(void) {
	int n = 0;
	check(cuDeviceGetCount(&n), "cuDeviceGetCount");
	printf("count %d\n", n);
	for (int i = 0; i < n; i++) {
		CUdevice d;
		CUuuid u;
		char name[128] = "";
		const unsigned char *b = u.bytes;
		check(cuDeviceGet(&d, i), "cuDeviceGet");
		check(cuDeviceGetName(name, sizeof name, d), "cuDeviceGetName");
		check(cuDeviceGetUuid(&u, d), "cuDeviceGetUuid");
		printf("gpu %d GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x %s\n", i,
		       b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15], name);
	}
}

/* bytes reads BYTES as a number, env:NAME or frac:F. */
static size_t bytes(const char *arg, CUdevice d) {
	if (strncmp(arg, "env:", 4) == 0) {
		const char *v = getenv(arg + 4);
		if (!v || !*v) {
			printf("probe: %s is not set in this container\n", arg + 4);
			exit(2);
		}
		return strtoull(v, NULL, 10);
	}
	if (strncmp(arg, "frac:", 5) == 0) {
		size_t total = 0;
		check(cuDeviceTotalMem(&total, d), "cuDeviceTotalMem");
		return (size_t)(strtod(arg + 5, NULL) * (double)total);
	}
	return strtoull(arg, NULL, 10);
}

static CUdevice context(void) {
	CUdevice d;
	CUcontext ctx;
	check(cuDeviceGet(&d, 0), "cuDeviceGet");
	check(cuCtxCreate(&ctx, 0, d), "cuCtxCreate");
	return d;
}

int main(int argc, char **argv) {
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2) {
		fprintf(stderr, "usage: probe uuids | alloc BYTES SECS | hold SECS\n");
		return 64;
	}
	load();
	check(cuInit(0), "cuInit");
	if (strcmp(argv[1], "uuids") == 0) {
		uuids();
		return 0;
	}
	if (strcmp(argv[1], "hold") == 0 && argc == 3) {
		context();
		printf("probe: context held for %s s\n", argv[2]);
		sleep((unsigned)atoi(argv[2]));
		return 0;
	}
	if (strcmp(argv[1], "alloc") == 0 && argc == 4) {
		CUdevice d = context();
		CUdeviceptr p;
		size_t n = bytes(argv[2], d);
		char call[64];
		snprintf(call, sizeof call, "cuMemAlloc(%zu)", n);
		check(cuMemAlloc(&p, n), call);
		printf("probe: allocated %zu bytes (%.2f GiB); holding %s s\n", n, (double)n / (1 << 30), argv[3]);
		sleep((unsigned)atoi(argv[3]));
		printf("probe: released %zu bytes\n", n);
		return 0;
	}
	fprintf(stderr, "usage: probe uuids | alloc BYTES SECS | hold SECS\n");
	return 64;
}
