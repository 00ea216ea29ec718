/**
 * What keeps the image's dependencies in a layer of their own (docs/operations.md, "Images"): in
 * the build stage, the lock file and the manifests (`manifests`: each workspace's package.json, as
 * `<folder>/package.json`) copied each to its own place, then `npm ci`, then the sources. Answers
 * the rules the Dockerfile breaks, none when it keeps them.
 */
export function layerProblems(dockerfile: string, manifests: string[]): string[] {
  const stage = dockerfile.split(/^FROM /m).find((block) => /^\S+ AS build\n/.test(block));
  if (stage === undefined) return ["no stage named build"];
  const instructions = stage
    .replace(/\\\n/g, " ")
    .split("\n")
    .slice(1)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
  const install = instructions.findIndex((line) => /^RUN npm ci\b/.test(line));
  const sources = instructions.indexOf("COPY . .");
  if (install === -1) return ["no `RUN npm ci` of its own"];
  if (sources === -1) return ["no `COPY . .` of the sources"];
  const problems: string[] = [];
  if (sources < install) problems.push("the sources are copied before `npm ci`");
  const copied = instructions.slice(0, install).flatMap((line) => {
    const [instruction, ...words] = line.split(/\s+/);
    if (instruction !== "COPY" || line === "COPY . .") return [];
    const destination = words.pop() ?? "";
    return words.filter((source) => {
      if (!/^([\w.-]+\/)*package(-lock)?\.json$/.test(source)) {
        problems.push(`${source} is copied before \`npm ci\`, and is not a manifest`);
        return false;
      }
      const folder = source.includes("/") ? `${source.slice(0, source.lastIndexOf("/"))}/` : "./";
      if (destination !== folder) problems.push(`${source} is copied to ${destination}, not to ${folder}`);
      return true;
    });
  });
  const wanted = ["package.json", "package-lock.json", ...manifests];
  for (const manifest of wanted.filter((file) => !copied.includes(file)))
    problems.push(`${manifest} is not copied before \`npm ci\``);
  for (const manifest of copied.filter((file) => !wanted.includes(file)))
    problems.push(`${manifest} is copied before \`npm ci\`, and names no workspace`);
  return problems;
}
