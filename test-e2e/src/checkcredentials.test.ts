import { beforeAll, describe, expect, it } from "vitest";
import { call } from "./support/api.js";
import { createCompany, createUser, type TestCompany } from "./support/fixtures.js";

/**
 * What only the six processes show of auth/checkcredentials: its timing over the real transport.
 * Its flow rules are tested in process (gateway/src/flow-tests/checkcredentials.test.ts).
 */
describe("auth/checkcredentials", () => {
  let company: TestCompany;
  const checkcredentials = (body: Record<string, unknown>, target = company) =>
    call(target.code, "checkcredentials", { apiKey: target.apiKey, body });

  beforeAll(async () => {
    company = await createCompany();
  });

  describe("rule 1: wrong login ID or password", () => {
    // The suite shares two cores with other test files, whose bursts of load can land on one side of
    // a short measurement; a real difference fails all three tries, noise does not.
    it("takes as long for an unknown login ID as for a known one (medians within 20%)", {
      retry: 2,
    }, async () => {
      const quiet = await createCompany({ captchaAfterFailures: 1_000, lockoutAfterFailures: 10_000 });
      const user = await createUser(quiet);
      const timed = async (loginId: string) => {
        const started = performance.now();
        const response = await checkcredentials({ login_id: loginId, password: "wrong password" }, quiet);
        expect(response.body.error_code).toBe("auth.credentials.invalid");
        return performance.now() - started;
      };
      const known: number[] = [];
      const unknown: number[] = [];
      // One login ID of each kind, as an attacker probing an account would, each warmed up once: the
      // first failure of a login ID creates its counters, which is not what is being compared.
      const nobody = `nobody-${user.loginName}`;
      await timed(user.loginName);
      await timed(nobody);
      // Each pair is taken in turn in both orders, so neither kind always follows the other.
      for (let i = 0; i < 21; i += 1) {
        if (i % 2 === 0) {
          known.push(await timed(user.loginName));
          unknown.push(await timed(nobody));
        } else {
          unknown.push(await timed(nobody));
          known.push(await timed(user.loginName));
        }
      }
      const median = (values: number[]) =>
        [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
      const ratio = median(unknown) / median(known);
      expect(
        ratio,
        `known ${median(known).toFixed(1)} ms, unknown ${median(unknown).toFixed(1)} ms`,
      ).toBeGreaterThan(0.8);
      expect(ratio).toBeLessThan(1.2);
    });
  });
});
