import { fileURLToPath } from "node:url";
import { cruise, type IForbiddenRuleType } from "dependency-cruiser";
import { describe, expect, it } from "vitest";

/** What sits above the framework and the steps: the endpoints, and the app they are served by. */
const endpointsAndApp = "^src/(flows/|http/|api/|routes\\.ts$|app\\.ts$|main\\.ts$)";

const rules: IForbiddenRuleType[] = [
  { name: "no cycle", from: {}, to: { circular: true } },
  {
    name: "the framework (endpoint/) imports neither the steps nor what is built on it",
    from: { path: "^src/endpoint/" },
    to: { path: [endpointsAndApp, "^src/steps/"] },
  },
  { name: "a step imports no endpoint", from: { path: "^src/steps/" }, to: { path: endpointsAndApp } },
];

/** Every import in gateway/src, type-only ones included, against the rules. */
async function violations(): Promise<string[]> {
  const { output } = await cruise(
    ["src"],
    {
      baseDir: fileURLToPath(new URL("..", import.meta.url)),
      parser: "swc",
      validate: true,
      ruleSet: { forbidden: rules },
      doNotFollow: { path: "node_modules" },
    },
    { extensionAlias: { ".js": [".ts", ".js"] } },
  );
  if (typeof output === "string") throw new Error("dependency-cruiser answered text");
  return output.summary.violations.map(({ rule, from, to, cycle }) =>
    [rule.name, from, "->", to, ...(cycle ? ["(", ...cycle.map((step) => step.name), ")"] : [])].join(" "),
  );
}

describe("the gateway's imports", () => {
  it("have no cycle, and none goes up from the framework or the steps to the endpoints", async () => {
    expect(await violations()).toEqual([]);
  });
});
