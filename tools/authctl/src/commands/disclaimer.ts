import { Acceptance, Disclaimer } from "@auth/proto/disclaimer";
import type { Command } from "commander";
import type { Cli } from "../context.js";
import type { Records } from "../table.js";

interface DisclaimerOptions {
  title: string;
  description: string;
  link: string;
}

const disclaimerRecords: Records<Disclaimer> = {
  columns: [
    { header: "code", cell: (d) => d.code },
    { header: "version", cell: (d) => `v${d.version}` },
    { header: "state", cell: (d) => (d.active ? "active" : "inactive") },
    { header: "title", cell: (d) => d.title },
    { header: "link", cell: (d) => d.link },
  ],
  none: "no disclaimers",
  toJSON: (d) => Disclaimer.toJSON(d),
};

const acceptanceRecords: Records<Acceptance> = {
  columns: [
    { header: "accepted", cell: (a) => a.acceptedAt?.toISOString() ?? "" },
    { header: "code", cell: (a) => a.code },
    { header: "version", cell: (a) => `v${a.version}` },
    { header: "user", cell: (a) => a.userId },
    { header: "address", cell: (a) => a.clientAddress },
  ],
  none: "no acceptances",
  toJSON: (a) => Acceptance.toJSON(a),
};

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
    cli().printRecord(created.disclaimer as Disclaimer, disclaimerRecords);
  });

  withTexts(
    disclaimer
      .command("publish <company> <code>")
      .description("publish a new version: every user accepts it again"),
  ).action(async (company: string, code: string, options: DisclaimerOptions) => {
    const published = await cli()
      .disclaimer()
      .publishDisclaimerVersion({ companyId: await cli().companyId(company), code, ...options });
    cli().printRecord(published.disclaimer as Disclaimer, disclaimerRecords);
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
      cli().printList(disclaimers, disclaimerRecords);
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
      cli().printList(acceptances, acceptanceRecords);
    });
}
