import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { layerProblems } from "./dockerfile-layers.js";
import { workspaceFolders, workspacePatterns } from "./workspaces.js";

const dockerfile = readFileSync(new URL("../../../Dockerfile", import.meta.url), "utf8");
const manifests = workspacePatterns.flatMap(workspaceFolders).map((folder) => `${folder}/package.json`);

describe('the image\'s layers (docs/operations.md, "Images")', () => {
  it("install from the lock file and every workspace's package.json before the sources are copied", () => {
    expect(manifests.length).toBeGreaterThan(20);
    expect(layerProblems(dockerfile, manifests)).toEqual([]);
  });

  const build = (...lines: string[]) => `FROM node AS build\nWORKDIR /app\n${lines.join("\n")}\n`;
  const lockFile = "COPY package.json package-lock.json ./";

  it("are refused when the sources come before `npm ci`", () => {
    const manifests = ["a/package.json"];
    expect(
      layerProblems(build(lockFile, "COPY a/package.json a/", "COPY . .", "RUN npm ci"), manifests),
    ).toEqual(["the sources are copied before `npm ci`"]);
    expect(
      layerProblems(
        build(lockFile, "COPY a/package.json a/", "COPY a/src a/src", "RUN npm ci", "COPY . ."),
        manifests,
      ),
    ).toEqual(["a/src is copied before `npm ci`, and is not a manifest"]);
  });

  it("are refused when a workspace's package.json is missing, or lands elsewhere", () => {
    const dockerfile = build(lockFile, "COPY a/package.json ./", "RUN npm ci \\\n && true", "COPY . .");
    expect(layerProblems(dockerfile, ["a/package.json", "b/package.json"])).toEqual([
      "a/package.json is copied to ./, not to a/",
      "b/package.json is not copied before `npm ci`",
    ]);
  });

  it("are refused when a manifest names a folder that is no workspace", () => {
    const dockerfile = build(lockFile, "COPY old/package.json old/", "RUN npm ci", "COPY . .");
    expect(layerProblems(dockerfile, [])).toEqual([
      "old/package.json is copied before `npm ci`, and names no workspace",
    ]);
  });
});
