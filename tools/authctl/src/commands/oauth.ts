import { OAuthProvider } from "@auth/proto/identity";
import type { Command } from "commander";
import { type Cli, readJsonFile } from "../context.js";
import type { Records } from "../table.js";
import { type SlotOptions, slotSettings } from "./oauth-settings.js";

/** What decides how a slot's logins count: a public client, the provider's MFA trusted, a max_age. */
const traits = (p: OAuthProvider) =>
  [
    p.publicClient ? "public client" : "",
    p.trustsProviderMfa
      ? `trusts provider MFA${p.mfaAcrValues.length > 0 ? ` (acr ${p.mfaAcrValues.join(", ")})` : ""}`
      : "",
    p.maxAgeSeconds > 0 ? `max_age ${p.maxAgeSeconds} s` : "",
  ]
    .filter(Boolean)
    .join("; ");

/** The configured slots, never their secrets. */
const providerRecords: Records<OAuthProvider> = {
  columns: [
    { header: "slot", cell: (p) => String(p.slot) },
    { header: "name", cell: (p) => p.name },
    { header: "issuer or token endpoint", cell: (p) => p.issuer || p.tokenEndpoint },
    { header: "client id", cell: (p) => p.clientId },
    { header: "traits", cell: traits },
  ],
  none: "no OAuth providers",
  toJSON: (p) => OAuthProvider.toJSON(p),
};

export function oauthCommands(program: Command, cli: () => Cli): void {
  const oauth = program.command("oauth").description("OAuth provider slots (1 to 5) and user links");

  oauth
    .command("set <company>")
    .description("configure a slot from a JSON file with OAuthProviderSettings (proto field names)")
    .requiredOption("--settings-file <path>", "the slot's settings, client secret included")
    .option(
      "--trusts-provider-mfa",
      "OpenID Connect: a login whose ID token proves multi-factor (amr mfa, or an acr of --mfa-acr-values) needs no second factor of ours",
    )
    .option(
      "--no-trusts-provider-mfa",
      "OpenID Connect: always ask for our second factor when one is required",
    )
    .option(
      "--mfa-acr-values <values>",
      "OpenID Connect: comma-separated acr values that prove a multi-factor login; empty for none",
    )
    .option(
      "--max-age-seconds <seconds>",
      "OpenID Connect: the oldest login at the provider accepted (the ID token's auth_time; clients send it as max_age); 0 for any",
    )
    .action(async (company: string, options: SlotOptions & { settingsFile: string }) => {
      const settings = slotSettings(readJsonFile(options.settingsFile), options);
      const { provider } = await cli()
        .identity()
        .setOAuthProvider({ companyId: await cli().companyId(company), settings });
      cli().printRecord(provider as OAuthProvider, providerRecords);
    });

  oauth
    .command("list <company>")
    .description("list the configured slots (never the secrets)")
    .action(async (company: string) => {
      const { providers } = await cli()
        .identity()
        .listOAuthProviders({ companyId: await cli().companyId(company) });
      cli().printList(providers, providerRecords);
    });

  oauth
    .command("delete <company> <slot>")
    .description("empty a slot, with its links")
    .action(async (company: string, slot: string) => {
      await cli()
        .identity()
        .deleteOAuthProvider({ companyId: await cli().companyId(company), slot: Number(slot) });
      cli().print({ deleted: Number(slot) }, `emptied slot ${slot}`);
    });

  oauth
    .command("link <company> <user-id> <slot> <subject>")
    .description("let the provider's subject log in as the user")
    .action(async (company: string, userId: string, slot: string, subject: string) => {
      await cli()
        .identity()
        .linkOAuthIdentity({
          companyId: await cli().companyId(company),
          userId,
          slot: Number(slot),
          subject,
        });
      cli().print(
        { linked: { userId, slot: Number(slot), subject } },
        `linked ${subject} in slot ${slot} to ${userId}`,
      );
    });

  oauth
    .command("unlink <company> <slot> <subject>")
    .description("remove a link")
    .action(async (company: string, slot: string, subject: string) => {
      await cli()
        .identity()
        .unlinkOAuthIdentity({ companyId: await cli().companyId(company), slot: Number(slot), subject });
      cli().print({ unlinked: { slot: Number(slot), subject } }, `unlinked ${subject} from slot ${slot}`);
    });
}
