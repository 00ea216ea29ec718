import { beforeAll, describe, expect, it } from "vitest";
import {
  call,
  createCompany,
  expectError,
  expectSuccess,
  type TestCompany,
  updateCompany,
  useInProcessSuite,
} from "../testing/fixtures.js";

useInProcessSuite();

const logoUrl = "https://acme.example/logo.svg";

/** The company's look for its login page, beyond the spec (docs/api-contract.md, "Brand"). */
describe("GET auth/brand", () => {
  let branded: TestCompany;
  let plain: TestCompany;
  const brandOf = (company: TestCompany, apiKey = company.apiKey) =>
    call(company.code, "brand", { method: "GET", apiKey });

  beforeAll(async () => {
    [branded, plain] = await Promise.all([
      createCompany({ brand: { logoUrl, color: "#7A1F5C" } }),
      createCompany(),
    ]);
  });

  it("answers the company's name, logo and colour from its policy", async () => {
    const response = await brandOf(branded);
    expectSuccess(response, ["company_name", "logo_url", "color"]);
    expect(response.body).toMatchObject({
      company_name: `Test ${branded.code}`,
      logo_url: logoUrl,
      color: "#7a1f5c",
    });
  });

  it("answers empty strings for a company that has set no logo or colour", async () => {
    const response = await brandOf(plain);
    expectSuccess(response, ["company_name", "logo_url", "color"]);
    expect(response.body).toMatchObject({ company_name: `Test ${plain.code}`, logo_url: "", color: "" });
  });

  it("may be kept by browsers and proxies for five minutes, for its API key only, and its errors not at all", async () => {
    const kept = await brandOf(branded);
    expect(kept.headers.get("cache-control")).toBe("public, max-age=300");
    expect(kept.headers.get("vary")).toBe("X-API-Key");
    expect((await brandOf(branded, "not-a-key")).headers.get("cache-control")).toBe("no-store");
  });

  it("needs the company's API key", async () => {
    expectError(await call(branded.code, "brand", { method: "GET" }), 401, "auth.apikey.missing");
    expectError(await brandOf(branded, plain.apiKey), 401, "auth.apikey.invalid");
  });

  it("is answered for a suspended company too: it starts nothing", async () => {
    const suspended = await createCompany({ brand: { logoUrl, color: "" } });
    await updateCompany(suspended, { suspended: true });
    const response = await brandOf(suspended);
    expectSuccess(response, ["company_name", "logo_url", "color"]);
    expect(response.body.logo_url).toBe(logoUrl);
  });

  it("takes GET only: another method is request.method.notallowed, with the methods it takes", async () => {
    const response = await call(branded.code, "brand", { apiKey: branded.apiKey, body: {} });
    expectError(response, 405, "request.method.notallowed");
    expect(response.headers.get("allow")).toBe("GET, HEAD");
  });
});
