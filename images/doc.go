// Package images turns a resolved, locked service into a container image.
//
// It renders a Dockerfile per built-in profile from embedded templates
// (templates/), writes a build context holding only the inputs a service
// declares (never the project tree, .git, .env files or keys), names the image
// by a content hash of every input, and builds it through engine.Engine only
// when no image has that name yet.
//
// The data flow is Input -> Render / WriteContext / Hash or Seal -> Build;
// a sealed Input is built from what Seal read, under the tag Seal computed.
package images
