import { OAuthProvider, OAuthProviderSettings } from "@auth/proto/identity";
import type { Command } from "commander";
import { type Cli, readJsonFile } from "../context.js";

const describe = (p: OAuthProvider) => `${p.slot}\t${p.name}\t${p.issuer || p.tokenEndpoint}\t${p.clientId}`;

export function oauthCommands(program: Command, cli: () => Cli): void {
  const oauth = program.command("oauth").description("OAuth provider slots (1 to 5) and user links");

  oauth
    .command("set <company>")
    .description("configure a slot from a JSON file with OAuthProviderSettings (proto field names)")
    .requiredOption("--settings-file <path>", "the slot's settings, client secret included")
    .action(async (company: string, options: { settingsFile: string }) => {
      const settings = OAuthProviderSettings.fromJSON(readJsonFile(options.settingsFile));
      const { provider } = await cli()
        .identity()
        .setOAuthProvider({ companyId: await cli().companyId(company), settings });
      cli().print(OAuthProvider.toJSON(provider as OAuthProvider), describe(provider as OAuthProvider));
    });

  oauth
    .command("list <company>")
    .description("list the configured slots (never the secrets)")
    .action(async (company: string) => {
      const { providers } = await cli()
        .identity()
        .listOAuthProviders({ companyId: await cli().companyId(company) });
      cli().print(
        providers.map((p) => OAuthProvider.toJSON(p)),
        providers.map(describe).join("\n"),
      );
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
