import { readFileSync } from "node:fs";
import { companyPolicy } from "@auth/grpc-kit";
import { describe, expect, it } from "vitest";
import { withPolicyDefaults } from "./companies.js";

/**
 * The table of docs/api-contract.md, "Company policy defaults": each field whose default it states
 * as a value, with that value (the rows whose default is another process's setting, or a rule,
 * name no value).
 */
function documentedDefaults(): [string, string][] {
  const contract = readFileSync(new URL("../../../docs/api-contract.md", import.meta.url), "utf8");
  const section = contract.slice(contract.indexOf("## Company policy defaults"));
  return [...section.matchAll(/^\| (`[a-z_]+`(?:, `[a-z_]+`)*) \| (.+) \|$/gm)].flatMap(
    ([, fields = "", cell = ""]) => {
      const names = [...fields.matchAll(/`([a-z_]+)`/g)].map(([, name = ""]) => name);
      const values = cell
        .replace(/\([^)]*\)/g, "")
        .split(" and ")
        .map((part) => /^\s*`?([A-Z]{2}|\d+)\b/.exec(part)?.[1]);
      if (values[0] === undefined) return [];
      return names.flatMap((name, index) => {
        const value = values[index];
        return value === undefined ? [] : [[name, value] as [string, string]];
      });
    },
  );
}

const camel = (name: string) => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

describe("a company policy's defaults", () => {
  const documented = documentedDefaults();

  it("are stated in the docs' table for the captcha, the lock-out, the window, the lifetimes and the passwords", () => {
    expect(documented.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        "captcha_after_failures",
        "lockout_after_failures",
        "failure_window_seconds",
        "session_absolute_seconds",
        "session_idle_seconds",
        "recovery_messages_per_hour",
        "min_password_length",
        "min_password_length_with_second_factor",
      ]),
    );
  });

  it.each(documented)("settle %s as the docs' table states it: %s", (name, value) => {
    const settled = withPolicyDefaults(companyPolicy()) as unknown as Record<string, unknown>;
    expect(String(settled[camel(name)])).toBe(value);
  });
});
