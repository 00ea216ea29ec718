import { createServiceClient } from "@auth/grpc-kit";
import { type ImportedFormat, importedFormats, importedHashesOf } from "@auth/identity/testing";
import { IdentityServiceService, ImportOutcome, UserStatus } from "@auth/proto/identity";
import type { RunningSuite } from "@auth/suite";
import { callLoad } from "./grpc-load.js";
import type { LoadResult } from "./http-load.js";

/** Users per ImportUsers call, as `authctl user import` sends them. */
export const importBatchSize = 500;

/**
 * ImportUsers as `authctl user import` drives it: one batch of 500 new users after the other, each
 * user with a password hash of another scheme (docs/performance.md, "Importing users (2026-11-27)").
 * A request is a batch; a batch with a user not created is an error.
 */
export async function importLoad(
  suite: RunningSuite,
  companyId: string,
  durationSeconds: number,
): Promise<LoadResult> {
  const identity = createServiceClient(IdentityServiceService, suite.addresses.identity, {
    deadlineMs: 60_000,
    adminToken: suite.adminToken,
    transport: suite.transportOf("operator"),
    server: "identity",
  });
  const hashes = await importedHashesOf("imported-password-1");
  try {
    return await callLoad(
      async (batch) => {
        const users = Array.from({ length: importBatchSize }, (_, index) => {
          const id = `${batch}-${index}`;
          return {
            externalId: `bench-import-${id}`,
            role: "customer",
            profileMnemocode: `bench-import-${id}`,
            loginName: `bench-import-${id}`,
            passwordHash: hashes[importedFormats[index % importedFormats.length] as ImportedFormat],
            status: UserStatus.ACTIVE,
            secondFactorRequired: false,
            passwordChangeRequired: false,
          };
        });
        const { results } = await identity.importUsers({ companyId, users });
        const created = results.filter((result) => result.outcome === ImportOutcome.CREATED).length;
        if (created !== importBatchSize) throw new Error(`${created} of ${importBatchSize} created`);
      },
      { concurrency: 1, durationSeconds },
    );
  } finally {
    identity.close();
  }
}
