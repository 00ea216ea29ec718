import { setTimeout } from "node:timers/promises";
import { createServiceClient, type GrpcTransport } from "@auth/grpc-kit/client";
import { mtlsTransport } from "@auth/grpc-kit/dev-pki";
import {
  providerSettings,
  seedCompany,
  seedUser,
  type TestUser,
  type UserOptions,
} from "@auth/identity/fixtures";
import { DisclaimerServiceService } from "@auth/proto/disclaimer";
import {
  type CompanyPolicy,
  IdentityServiceService,
  type ImportedUser,
  type ImportResult,
  type OAuthProviderSettings,
  type UserStatus,
} from "@auth/proto/identity";
import type { RunningSuite } from "@auth/suite";
import { inject } from "vitest";

/** Where a test's companies are administered, with the operator's credentials (certificate and admin token). */
export interface Operator {
  identityAddress: string;
  disclaimerAddress: string;
  adminToken: string;
  transport: GrpcTransport;
}

/** How a holder of one of the shared suite's certificates (its processes, `operator`, its consumers) calls. */
export function sharedTransportOf(holder: string): GrpcTransport {
  const files = inject("certificates")[holder];
  if (!files) throw new Error(`the shared suite made no certificate for ${holder}`);
  return mtlsTransport(files);
}

/** The shared suite's operator. */
const sharedOperator = (): Operator => ({
  identityAddress: inject("identityAddress"),
  disclaimerAddress: inject("disclaimerAddress"),
  adminToken: inject("adminToken"),
  transport: sharedTransportOf("operator"),
});

/** The operator of a suite a test file started itself. */
export function operatorOf(suite: RunningSuite): Operator {
  return {
    identityAddress: suite.addresses.identity,
    disclaimerAddress: suite.addresses.disclaimer,
    adminToken: suite.adminToken,
    transport: suite.transportOf("operator"),
  };
}

const identity = (operator: Operator, deadlineMs = 10_000) =>
  createServiceClient(IdentityServiceService, operator.identityAddress, {
    deadlineMs,
    adminToken: operator.adminToken,
    transport: operator.transport,
    server: "identity",
  });
const disclaimers = (operator: Operator) =>
  createServiceClient(DisclaimerServiceService, operator.disclaimerAddress, {
    deadlineMs: 10_000,
    adminToken: operator.adminToken,
    transport: operator.transport,
    server: "disclaimer",
  });

export interface TestCompany {
  id: string;
  code: string;
  apiKey: string;
  policy: CompanyPolicy;
  operator: Operator;
}

export type { TestUser, UserOptions };

/** A company of its own for a test file, with an API key, created through the identity gRPC API. */
export async function createCompany(
  overrides: Partial<CompanyPolicy> = {},
  operator: Operator = sharedOperator(),
): Promise<TestCompany> {
  const client = identity(operator);
  try {
    return { ...(await seedCompany(client, overrides)), operator };
  } finally {
    client.close();
  }
}

/** Suspends or resumes a company, or changes its policy, through the identity gRPC API. */
export async function updateCompany(
  company: TestCompany,
  changes: { suspended?: boolean; policy?: Partial<CompanyPolicy> },
): Promise<void> {
  const client = identity(company.operator);
  try {
    const policy = changes.policy && { ...company.policy, ...changes.policy };
    const { company: updated } = await client.updateCompany({
      companyId: company.id,
      suspended: changes.suspended,
      policy,
    });
    if (updated?.policy) company.policy = updated.policy;
  } finally {
    client.close();
  }
}

/** Changes the user's status as an administrator would. */
export async function updateUserStatus(
  company: TestCompany,
  user: TestUser,
  status: UserStatus,
): Promise<void> {
  const client = identity(company.operator);
  try {
    await client.updateUser({ companyId: company.id, userId: user.id, status });
  } finally {
    client.close();
  }
}

export async function createUser(company: TestCompany, options: UserOptions = {}): Promise<TestUser> {
  const client = identity(company.operator);
  try {
    return await seedUser(client, company.id, options);
  } finally {
    client.close();
  }
}

/** Imports a batch of users through the identity gRPC API, as `authctl user import` does; the results in order. */
export async function importUsers(company: TestCompany, users: ImportedUser[]): Promise<ImportResult[]> {
  // A batch of 500 inserts takes seconds on a loaded machine.
  const client = identity(company.operator, 120_000);
  try {
    return (await client.importUsers({ companyId: company.id, users })).results;
  } finally {
    client.close();
  }
}

/**
 * The gateway's DISCLAIMER_COMPANIES_REFRESH_SECONDS by default, which no suite of these tests sets
 * higher: a company's first disclaimer is asked for within this long (docs/decisions.md, "A company
 * without disclaimers").
 */
const disclaimerListRefreshMs = 1_000;

/**
 * A disclaimer every user of the company must accept, once every gateway asks for it: after the
 * refresh period, no list read before it was created still stands. (Not a race: the gateway judges
 * a list's age by the clock of this same machine.)
 */
export async function createDisclaimer(company: TestCompany, code: string) {
  const client = disclaimers(company.operator);
  try {
    const disclaimer = {
      code,
      title: `Title ${code}`,
      description: `About ${code}`,
      link: `https://example.com/${code}`,
    };
    await client.createDisclaimer({ companyId: company.id, ...disclaimer });
    await setTimeout(disclaimerListRefreshMs);
    return disclaimer;
  } finally {
    client.close();
  }
}

/** Ten new backup codes for the user, through the identity gRPC API. */
export async function generateBackupCodes(company: TestCompany, user: TestUser): Promise<string[]> {
  const client = identity(company.operator);
  try {
    return (await client.generateBackupCodes({ companyId: company.id, userId: user.id })).backupCodes;
  } finally {
    client.close();
  }
}

/** Configures one of the company's OAuth provider slots through the identity gRPC API. */
export async function setOAuthProvider(
  company: TestCompany,
  settings: Partial<OAuthProviderSettings> & { slot: number },
) {
  const client = identity(company.operator);
  try {
    await client.setOAuthProvider({
      companyId: company.id,
      settings: providerSettings(settings),
    });
  } finally {
    client.close();
  }
}

/** Lets the provider's subject log in as the user. */
export async function linkOAuthIdentity(company: TestCompany, user: TestUser, slot: number, subject: string) {
  const client = identity(company.operator);
  try {
    await client.linkOAuthIdentity({ companyId: company.id, userId: user.id, slot, subject });
  } finally {
    client.close();
  }
}
