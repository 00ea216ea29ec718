import { ApiKey } from "@auth/proto/identity";
import type { Command } from "commander";
import type { Cli } from "../context.js";
import type { Records } from "../table.js";

/** A company's API keys, never the keys. */
const apiKeyRecords: Records<ApiKey> = {
  columns: [
    { header: "key id", cell: (key) => key.keyId },
    {
      header: "state",
      cell: (key) =>
        key.revokedAt ? "revoked" : key.expiresAt ? `expires ${key.expiresAt.toISOString()}` : "active",
    },
    { header: "label", cell: (key) => key.label },
  ],
  none: "no API keys",
  toJSON: (key) => ApiKey.toJSON(key),
};

export function apiKeyCommands(program: Command, cli: () => Cli): void {
  const apikey = program.command("apikey").description("a company's API keys (X-API-Key)");

  apikey
    .command("create <company>")
    .description("create an API key; it is shown once")
    .option("--label <label>", "what the key is for", "")
    .action(async (company: string, options: { label: string }) => {
      const created = await cli()
        .identity()
        .createApiKey({ companyId: await cli().companyId(company), label: options.label });
      cli().print(created, `${created.apiKey}\t(key id ${created.keyId}; shown once)`);
    });

  apikey
    .command("list <company>")
    .description("list a company's API keys (never the keys)")
    .action(async (company: string) => {
      const { apiKeys } = await cli()
        .identity()
        .listApiKeys({ companyId: await cli().companyId(company) });
      cli().printList(apiKeys, apiKeyRecords);
    });

  apikey
    .command("revoke <company> <key-id>")
    .description("revoke an API key at once")
    .action(async (company: string, keyId: string) => {
      await cli()
        .identity()
        .revokeApiKey({ companyId: await cli().companyId(company), keyId });
      cli().print({ revoked: keyId }, `revoked ${keyId}`);
    });

  apikey
    .command("rotate <company> <key-id>")
    .description("replace an API key; the old one keeps working for the overlap")
    .option("--overlap-seconds <seconds>", "how long the old key keeps working", "86400")
    .action(async (company: string, keyId: string, options: { overlapSeconds: string }) => {
      const rotated = await cli()
        .identity()
        .rotateApiKey({
          companyId: await cli().companyId(company),
          keyId,
          overlapSeconds: Number(options.overlapSeconds),
        });
      cli().print(rotated, `${rotated.apiKey}\t(key id ${rotated.keyId}; shown once)`);
    });
}
