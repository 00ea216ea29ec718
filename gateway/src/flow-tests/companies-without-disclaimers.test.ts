import { beforeAll, describe, expect, it } from "vitest";
import {
  call,
  createCompany,
  createDisclaimer,
  createUser,
  served,
  type TestCompany,
  useInProcessSuite,
} from "../testing/fixtures.js";

/** Longer than any test here: a list read in a test stands for the rest of it. */
const refreshMs = 10 * 60_000;
const suite = useInProcessSuite({ disclaimerListRefreshMs: refreshMs });

const asked = () => served("listRequiredDisclaimers");
const login = (company: TestCompany, loginId: string) =>
  call(company.code, "login", { apiKey: company.apiKey, body: { login_id: loginId } });

/**
 * docs/decisions.md, "A company without disclaimers": a company the gateway's last list of the
 * companies with disclaimers does not name asks the disclaimer service nothing; its first
 * disclaimer is asked for once the list is read again.
 */
describe("a company without disclaimers", () => {
  let withoutDisclaimers: TestCompany;
  let withTerms: TestCompany;

  beforeAll(async () => {
    [withoutDisclaimers, withTerms] = await Promise.all([createCompany(), createCompany()]);
    await createDisclaimer(withTerms, "terms");
    await suite().readCompaniesWithDisclaimers();
  });

  it("logs in with no ListRequiredDisclaimers call, disclaimers_required empty", async () => {
    const user = await createUser(withoutDisclaimers);
    const before = await asked();
    const started = await login(withoutDisclaimers, user.loginName);
    expect(started.body).toMatchObject({ session_state: "checkpassword", disclaimers_required: [] });
    const checked = await call(withoutDisclaimers.code, "checkcredentials", {
      apiKey: withoutDisclaimers.apiKey,
      body: { login_id: user.loginName, password: user.password },
    });
    expect(checked.body.session_state).toBe("authorized");
    expect(await asked()).toBe(before);
  });

  it("asks for the disclaimers of a company the list names, and requires them", async () => {
    const user = await createUser(withTerms);
    const before = await asked();
    const started = await login(withTerms, user.loginName);
    expect(started.body.disclaimers_required).toEqual([expect.objectContaining({ code: "terms" })]);
    expect(await asked()).toBe(before + 1);
  });

  it("requires a company's first disclaimer once the list is read again", async () => {
    const company = await createCompany();
    const user = await createUser(company);
    await suite().readCompaniesWithDisclaimers();
    await createDisclaimer(company, "terms");
    // Until the next read (every DISCLAIMER_COMPANIES_REFRESH_SECONDS), the list stands.
    expect((await login(company, user.loginName)).body.disclaimers_required).toEqual([]);
    await suite().readCompaniesWithDisclaimers();
    const before = await asked();
    expect((await login(company, user.loginName)).body.disclaimers_required).toEqual([
      expect.objectContaining({ code: "terms" }),
    ]);
    expect(await asked()).toBe(before + 1);
  });
});
