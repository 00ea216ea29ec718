import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { baseImageProblems } from "./base-image.js";

const dockerfile = readFileSync(new URL("../../../Dockerfile", import.meta.url), "utf8");
const { engines } = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as {
  engines: { node: string };
};

describe('the image\'s base (docs/operations.md, "Node.js")', () => {
  it("is pinned by its digest", () => {
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:[\w.-]+@sha256:[0-9a-f]{64}$/m);
  });

  it("runs the Node.js major that the root package.json's engines states", () => {
    expect(baseImageProblems(dockerfile, engines.node)).toEqual([]);
  });

  const image = (tag: string) => `ARG NODE_IMAGE=node:${tag}@sha256:${"0".repeat(64)}\n`;

  it("is accepted whatever the tag's variant or precision, when its major is the lowest engines admits", () => {
    expect(baseImageProblems(image("24-bookworm-slim"), "^24.11.0")).toEqual([]);
    expect(baseImageProblems(image("24.19.0-bookworm-slim"), ">=24")).toEqual([]);
  });

  it("is refused when its Node.js major is not the one engines states", () => {
    expect(baseImageProblems(image("20-bookworm-slim"), "^24.11.0")).toEqual([
      'the image runs Node.js 20, engines.node is "^24.11.0"',
    ]);
    expect(baseImageProblems(image("24-bookworm-slim"), ">=20.19")).toEqual([
      'the image runs Node.js 24, engines.node is ">=20.19"',
    ]);
  });

  it("is refused when its tag names no major, or engines is no version range", () => {
    expect(baseImageProblems(image("lts-slim"), "^24.11.0")).toEqual(["no `ARG NODE_IMAGE=node:<major>...`"]);
    expect(baseImageProblems(image("24-slim"), "24 or so")).toEqual([
      'engines.node "24 or so" is no version range',
    ]);
  });
});
