import semver from "semver";

/**
 * The Node.js of the images against the one the product states it runs on (docs/operations.md,
 * "Node.js"): the base image's tag (`ARG NODE_IMAGE=node:<major>...`) must name the major of the
 * lowest version that `engines` (the root package.json's `engines.node`) admits. Answers what
 * differs, none when they agree.
 */
export function baseImageProblems(dockerfile: string, engines: string): string[] {
  const image = /^ARG NODE_IMAGE=node:(\d+)\b/m.exec(dockerfile);
  if (image === null) return ["no `ARG NODE_IMAGE=node:<major>...`"];
  const lowest = semver.validRange(engines) === null ? null : semver.minVersion(engines);
  if (lowest === null) return [`engines.node "${engines}" is no version range`];
  const major = Number(image[1]);
  return major === lowest.major ? [] : [`the image runs Node.js ${major}, engines.node is "${engines}"`];
}
