import { pageRoutes, type RunningLoginPage, serveLoginPage } from "@auth/login-page";
import type { CompanyPolicy } from "@auth/proto/identity";
import { freePort } from "@auth/runtime";
import { inject } from "vitest";
import { createCompany, type TestCompany } from "./fixtures.js";

/** A company with its reference login page, which is its recovery page too. */
export interface LoginPageSite {
  url: string;
  company: TestCompany;
  page: RunningLoginPage;
}

/**
 * A company of the shared suite and its login page, on a port chosen before the company so that
 * the links of its e-mails (`recovery.link_base`) open this page.
 */
export async function serveCompanyPage(policy: Partial<CompanyPolicy> = {}): Promise<LoginPageSite> {
  const url = `http://127.0.0.1:${await freePort()}`;
  const company = await createCompany({
    ...policy,
    recovery: { order: [], disabled: [], disabledByRole: {}, linkBase: `${url}${pageRoutes.recoveryLink}` },
  });
  const page = await serveLoginPage({
    gatewayUrl: inject("gatewayUrl"),
    companyCode: company.code,
    apiKey: company.apiKey,
    port: Number(new URL(url).port),
  });
  return { url, company, page };
}
