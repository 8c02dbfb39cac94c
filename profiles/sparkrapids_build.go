package profiles

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// buildSparkRapids fills in the chosen combination: Java, CUDA, Python and
// the base image, host requirements, artifacts and notes.
func (c *Catalog) buildSparkRapids(req Request, x combo) (Resolved, error) {
	r := Resolved{Profile: SparkRapids, Spark: x.spark, Scala: x.scala, ScalaFull: x.rel.ScalaFull[x.scala], Rapids: x.rel.Version}
	line := c.sparkByVer[x.spark]
	r.Notes = append(r.Notes, c.choiceNotes(req, x)...)

	r.Java = req.Java
	if r.Java == "" {
		java, why := pickJava(c.javas(x))
		r.Java = strconv.Itoa(java)
		r.Notes = append(r.Notes, fmt.Sprintf("java: %d, %s Spark %s allows (%s)", java, why, line.Line, orList(intsToStrings(c.javas(x)))))
	}

	arch := archOf(req)
	cl, _ := x.rel.jarFor(major(req.CUDA), arch)
	cudaMajor := knownClassifiers[cl].cuda
	r.JarClassifier = cl
	if req.CUDA == "" {
		r.Notes = append(r.Notes, fmt.Sprintf("cuda: %s jar, the %s choice of RAPIDS Accelerator %s for %s", cl, defaultWord(cl, x.rel), x.rel.Version, arch))
	}
	cuda, err := c.baseCUDA(req.CUDA, cudaMajor)
	if err != nil {
		return Resolved{}, err
	}
	r.CUDA = cuda

	ub, python, err := c.pickUbuntu(req, x, cuda, line)
	if err != nil {
		return Resolved{}, err
	}
	r.Python = python
	r.BaseImage = expand(c.file.Images.CUDA, map[string]string{"cuda": cuda, "ubuntu": ub.Version})

	fam := c.family[cudaMajor]
	r.Requires = Requirements{
		MinDriver:            c.jarDriver(x.rel, cl),
		CUDA:                 majorMinor(cuda),
		MinComputeCapability: maxVersion(x.rel.MinComputeCapability, fam.MinComputeCapability),
	}
	r.Notes = append(r.Notes,
		fmt.Sprintf("driver: %s or newer, the higher of RAPIDS Accelerator %s's floor (R%s) and CUDA %s minor-version compatibility (%s)",
			r.Requires.MinDriver, x.rel.Version, x.rel.MinDriver, cudaMajor, fam.MinDriver),
		gpuNote(r.Requires.MinComputeCapability, cl))

	suffix := ""
	if cl != x.rel.DefaultClassifier {
		suffix = cl
	}
	repo := c.file.SparkRapids.Repositories[x.rel.Repository]
	r.Artifacts = []Artifact{
		sparkDist(x.spark, x.scala, line.Dist),
		acceleratorJar(repo, c.file.SparkRapids.MavenGroup, x.scala, x.rel.Version, suffix),
	}
	if repo != "" {
		r.Notes = append(r.Notes, fmt.Sprintf("jar: RAPIDS Accelerator %s jars are not on Maven Central; NVIDIA published them to %s (fetched through mirrors.maven when set)", x.rel.Version, repo))
	}
	r.Notes = append(r.Notes, c.unsureNotes(x, line)...)
	return r, nil
}

// jarDriver is the oldest driver a release's jar of one classifier runs on:
// the release's floor or its CUDA family's, whichever is higher.
func (c *Catalog) jarDriver(rel *acceleratorRel, classifier string) string {
	return maxVersion(rel.MinDriver, c.family[knownClassifiers[classifier].cuda].MinDriver)
}

func gpuNote(cc, classifier string) string {
	if cc == "7.0" {
		return "gpu: compute capability 7.0 or newer (RAPIDS Accelerator dropped Pascal in 24.02.0; Volta and later)"
	}
	return fmt.Sprintf("gpu: compute capability %s or newer (the %s jar is built with CUDA %s, which dropped Maxwell, Pascal and Volta: Turing and later)",
		cc, classifier, knownClassifiers[classifier].cuda)
}

// choiceNotes say which release, Spark and Scala were picked for the user.
func (c *Catalog) choiceNotes(req Request, x combo) []string {
	var notes []string
	if req.Rapids != x.rel.Version {
		q := ""
		if req.Rapids != "" {
			q = " matching " + req.Rapids
		}
		if req.Spark != "" {
			q += " that supports Spark " + req.Spark
		}
		if req.Driver != "" {
			q += " whose jar the driver runs"
		}
		notes = append(notes, fmt.Sprintf("rapids: newest RAPIDS Accelerator release%s is %s", q, x.rel.Version))
	}
	if req.Scala == "" {
		notes = append(notes, fmt.Sprintf("scala: %s (%s), the default for Spark %s.x", x.scala, x.rel.ScalaFull[x.scala], major(x.spark)))
	}
	if req.Spark != x.spark {
		q := ""
		if req.Spark != "" {
			q = " " + req.Spark + ".x"
		}
		notes = append(notes, fmt.Sprintf("spark: newest%s supported by RAPIDS %s with Scala %s is %s", q, x.rel.Version, x.scala, x.spark))
	}
	return notes
}

// pickJava prefers 17, else the newest allowed.
func pickJava(allowed []int) (int, string) {
	if slices.Contains(allowed, 17) {
		return 17, "the default where"
	}
	return allowed[len(allowed)-1], "the newest"
}

func defaultWord(cl string, rel *acceleratorRel) string {
	if cl == rel.DefaultClassifier {
		return "default"
	}
	return "only"
}

// baseCUDA picks the base image's CUDA toolkit: the catalog's image for the
// jar's CUDA major, or the newest known toolkit matching a more precise ask.
func (c *Catalog) baseCUDA(want, cudaMajor string) (string, error) {
	if !strings.Contains(want, ".") {
		return c.cudaImage[cudaMajor], nil
	}
	best := ""
	var same []string
	for _, t := range c.file.CUDA.Toolkits {
		if major(t.Version) != cudaMajor {
			continue
		}
		same = append(same, t.Version)
		if matchesPrefix(t.Version, want) {
			best = t.Version
		}
	}
	if best == "" {
		return "", resolveErr("cuda", fmt.Sprintf("CUDA %s is not a toolkit devenv knows", want),
			"use cuda: %s, or one of the known CUDA %s toolkits: %s", cudaMajor, cudaMajor, strings.Join(same, ", "))
	}
	return best, nil
}

// pickUbuntu chooses the Ubuntu flavour of the CUDA base image that ships
// the Python asked for (22.04 and its Python by default).
func (c *Catalog) pickUbuntu(req Request, x combo, cuda string, line *sparkLine) (ubuntuFlavor, string, error) {
	var offered []string
	for _, u := range c.file.Ubuntu {
		if req.Python == "" && compareVersions(cuda, u.MinCUDA) >= 0 {
			return u, u.DefaultPython, nil
		}
		for _, p := range u.Python {
			offered = append(offered, p)
			if !matchesPrefix(p, req.Python) {
				continue
			}
			if compareVersions(cuda, u.MinCUDA) < 0 {
				return ubuntuFlavor{}, "", resolveErr("python",
					fmt.Sprintf("Python %s needs the Ubuntu %s base image, which exists from CUDA %s; RAPIDS Accelerator %s's CUDA %s jar runs on CUDA %s", p, u.Version, u.MinCUDA, x.rel.Version, major(cuda), cuda),
					"use python: %s, or a CUDA 12 jar (cuda: 12 with RAPIDS Accelerator %s or later)", orList(c.file.Ubuntu[0].Python), c.firstWithCUDA("12", archOf(req)))
			}
			if compareVersions(p, line.PythonMin) < 0 {
				return ubuntuFlavor{}, "", resolveErr("python", fmt.Sprintf("Spark %s needs Python %s or later", x.spark, line.PythonMin),
					"use python: %s or later", line.PythonMin)
			}
			return u, p, nil
		}
	}
	return ubuntuFlavor{}, "", resolveErr("python", fmt.Sprintf("Python %s is not offered by the spark-rapids base images", req.Python),
		"use python: %s", orList(offered))
}

// firstWithCUDA is the oldest accelerator release with a jar for a CUDA major.
func (c *Catalog) firstWithCUDA(cudaMajor, arch string) string {
	for _, r := range c.file.SparkRapids.Releases {
		if _, ok := r.jars(arch)[cudaMajor]; ok {
			return r.Version
		}
	}
	return "?"
}

func (c *Catalog) unsureNotes(x combo, line *sparkLine) []string {
	var notes []string
	if x.rel.Unsure {
		notes = append(notes, fmt.Sprintf("catalog: RAPIDS Accelerator %s data is marked unsure (no release-tag pom confirms its Spark list); devenv lock checks the shims in the jar itself", x.rel.Version))
	}
	if line.Unsure {
		notes = append(notes, fmt.Sprintf("catalog: Spark %s runtime requirements are marked unsure; check spark.apache.org/docs/%s", line.Line, x.spark))
	}
	return notes
}

// expand fills {name} placeholders of an image format.
func expand(format string, vals map[string]string) string {
	for k, v := range vals {
		format = strings.ReplaceAll(format, "{"+k+"}", v)
	}
	return format
}
