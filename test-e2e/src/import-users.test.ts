import { type ImportedFormat, importedFormats, importedHashesOf } from "@auth/identity/testing";
import { type ImportedUser, ImportOutcome, UserStatus } from "@auth/proto/identity";
import { testBudgets } from "@auth/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { call } from "./support/api.js";
import { createCompany, importUsers, type TestCompany } from "./support/fixtures.js";

const userCount = 10_000;
const batchSize = 500;
const password = "imported-password-1";

/**
 * docs/decisions.md, "Imported password hashes": a company brings 10,000 users from another system
 * with the hashes they had there, in every scheme the import takes; each logs in through the gateway
 * with the password it had, and a re-run of the import changes nothing.
 */
describe("importing 10,000 users with the password hashes they already have", {
  timeout: 20 * testBudgets.testMs,
}, () => {
  let company: TestCompany;
  const users: ImportedUser[] = [];
  const formatOf = (index: number) => importedFormats[index % importedFormats.length] as ImportedFormat;
  const importAll = async () => {
    const results = [];
    for (let start = 0; start < users.length; start += batchSize)
      results.push(...(await importUsers(company, users.slice(start, start + batchSize))));
    return results;
  };

  beforeAll(async () => {
    company = await createCompany();
    // A few hashes of each scheme, made once and shared among the users: the test times the import, not the hashing.
    const hashes = await Promise.all(Array.from({ length: 3 }, () => importedHashesOf(password)));
    for (let index = 0; index < userCount; index += 1)
      users.push({
        externalId: `legacy-${index}`,
        role: "customer",
        profileMnemocode: `legacy-profile-${index}`,
        loginName: `legacy-${formatOf(index).toLowerCase()}-${index}`,
        passwordHash: hashes[index % hashes.length]?.[formatOf(index)],
        status: UserStatus.ACTIVE,
        secondFactorRequired: false,
        passwordChangeRequired: false,
      });
  }, testBudgets.testMs);

  it("creates every user, then logs in one user of each scheme with the password it had, twice (the second time on the argon2id that replaced it), and a re-run skips them all", async () => {
    const created = await importAll();
    expect(created.filter((result) => result.outcome === ImportOutcome.CREATED)).toHaveLength(userCount);

    const logIn = (loginId: string, typed: string) =>
      call(company.code, "checkcredentials", {
        apiKey: company.apiKey,
        body: { login_id: loginId, password: typed },
      });
    for (const [index, format] of importedFormats.entries()) {
      const loginId = users[index]?.loginName ?? "";
      expect((await logIn(loginId, `${password}x`)).status, format).toBe(401);
      for (const attempt of ["first", "second"]) {
        const answer = await logIn(loginId, password);
        expect(answer.body.session_state, `${format}, ${attempt} login: ${JSON.stringify(answer.body)}`).toBe(
          "authorized",
        );
      }
    }

    const again = await importAll();
    expect(again.filter((result) => result.outcome === ImportOutcome.SKIPPED)).toHaveLength(userCount);
    expect(again.map((result) => result.userId)).toEqual(created.map((result) => result.userId));
  });
});
