import { Acceptance, Disclaimer } from "@auth/proto/disclaimer";
import type { Command } from "commander";
import type { Cli } from "../context.js";

interface DisclaimerOptions {
  title: string;
  description: string;
  link: string;
}

const describe = (d: Disclaimer) =>
  `${d.code}\tv${d.version}\t${d.active ? "active" : "inactive"}\t${d.title}\t${d.link}`;

function withTexts(command: Command): Command {
  return command
    .requiredOption("--title <title>", "title for display")
    .option("--description <text>", "short description", "")
    .requiredOption("--link <url>", "URL of the legal text");
}

export function disclaimerCommands(program: Command, cli: () => Cli): void {
  const disclaimer = program
    .command("disclaimer")
    .description("legal disclaimers, their versions and acceptances");

  withTexts(
    disclaimer.command("create <company> <code>").description("create a disclaimer (version 1)"),
  ).action(async (company: string, code: string, options: DisclaimerOptions) => {
    const created = await cli()
      .disclaimer()
      .createDisclaimer({ companyId: await cli().companyId(company), code, ...options });
    cli().print(
      Disclaimer.toJSON(created.disclaimer as Disclaimer),
      describe(created.disclaimer as Disclaimer),
    );
  });

  withTexts(
    disclaimer
      .command("publish <company> <code>")
      .description("publish a new version: every user accepts it again"),
  ).action(async (company: string, code: string, options: DisclaimerOptions) => {
    const published = await cli()
      .disclaimer()
      .publishDisclaimerVersion({ companyId: await cli().companyId(company), code, ...options });
    cli().print(
      Disclaimer.toJSON(published.disclaimer as Disclaimer),
      describe(published.disclaimer as Disclaimer),
    );
  });

  disclaimer
    .command("deactivate <company> <code>")
    .description("stop asking users to accept a disclaimer")
    .action(async (company: string, code: string) => {
      await cli()
        .disclaimer()
        .deactivateDisclaimer({ companyId: await cli().companyId(company), code });
      cli().print({ deactivated: code }, `deactivated ${code}`);
    });

  disclaimer
    .command("list <company>")
    .description("list a company's disclaimers")
    .action(async (company: string) => {
      const { disclaimers } = await cli()
        .disclaimer()
        .listDisclaimers({ companyId: await cli().companyId(company) });
      cli().print(
        disclaimers.map((d) => Disclaimer.toJSON(d)),
        disclaimers.map(describe).join("\n"),
      );
    });

  disclaimer
    .command("acceptances <company>")
    .description("who accepted what, newest first")
    .option("--code <code>", "only this disclaimer")
    .option("--user <user-id>", "only this user")
    .option("--limit <n>", "at most this many", "100")
    .action(async (company: string, options: { code?: string; user?: string; limit: string }) => {
      const { acceptances } = await cli()
        .disclaimer()
        .listAcceptances({
          companyId: await cli().companyId(company),
          code: options.code,
          userId: options.user,
          limit: Number(options.limit),
        });
      cli().print(
        acceptances.map((a) => Acceptance.toJSON(a)),
        acceptances
          .map(
            (a) =>
              `${a.acceptedAt?.toISOString()}\t${a.code}\tv${a.version}\t${a.userId}\t${a.clientAddress}`,
          )
          .join("\n"),
      );
    });
}
