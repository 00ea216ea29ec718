import { eventJson } from "@auth/events/event";
import { Webhook } from "@auth/proto/audit";
import type { Command } from "commander";
import type { Cli } from "../context.js";
import { table } from "../table.js";
import {
  collect,
  deliveryStateOption,
  enabledOption,
  timeOption,
  wholeNumberOption,
} from "./audit-options.js";
import { deliveryRecords, eventRecords, webhookRecords } from "./audit-table.js";

interface OfCompany {
  company: string;
}

interface OfWebhook extends OfCompany {
  webhook: string;
}

interface EventsOptions extends OfCompany {
  user?: string;
  type?: string[];
  from?: string;
  to?: string;
  limit?: string;
  pageToken?: string;
}

/** On stderr, so that stdout holds only the page asked for. */
function nextPage(cli: Cli, token: string): void {
  if (token) cli.note(`more: the next page with --page-token ${token}`);
}

/** The webhook and its new signing secret, on stdout this once, with the warning on stderr. */
function printSecret(cli: Cli, webhook: Webhook | undefined, secret: string): void {
  cli.note("the webhook's signing secret is shown this once: keep it now, it is not shown again");
  cli.print(
    { webhook: webhook && Webhook.toJSON(webhook), secret },
    `${webhook ? `${table([webhook], webhookRecords)}\n` : ""}secret ${secret}`,
  );
}

/** The audit trail (docs/operations.md, "Audit trail and webhooks"). */
export function auditCommands(program: Command, cli: () => Cli): void {
  const audit = program
    .command("audit")
    .description("the security events the audit service keeps per company, and how long it keeps them");

  audit
    .command("events")
    .description(
      "a company's security events, newest first, a page at a time; --json prints each as its CloudEvents JSON line",
    )
    .requiredOption("--company <code>", "the company's code")
    .option("--user <user-id>", "only this user's events")
    .option(
      "--type <type>",
      "only events of this type (repeat for several), as the catalogue names it",
      collect,
    )
    .option("--from <time>", "events at or after this time (RFC 3339, such as 2026-01-02T03:04:05Z)")
    .option("--to <time>", "events before this time (RFC 3339)")
    .option("--limit <n>", "events on the page, 1 to 1000 (100 unless given)")
    .option("--page-token <token>", "the next page, as the previous one named it")
    .action(async (options: EventsOptions) => {
      const request = {
        userId: options.user,
        types: options.type ?? [],
        from: timeOption("--from", options.from),
        to: timeOption("--to", options.to),
        pageSize: wholeNumberOption("--limit", options.limit, 1, 1000) ?? 0,
        pageToken: options.pageToken ?? "",
      };
      const page = await cli()
        .audit()
        .listEvents({ companyId: await cli().companyId(options.company), ...request });
      cli().printLines(page.events, eventJson, eventRecords);
      nextPage(cli(), page.nextPageToken);
    });

  audit
    .command("retention")
    .description("how many days the company's events are kept (90 unless set); --days sets it")
    .requiredOption("--company <code>", "the company's code")
    .option("--days <n>", "keep the events this many days, 1 to 3650; older ones are deleted within the hour")
    .action(async (options: OfCompany & { days?: string }) => {
      const days = wholeNumberOption("--days", options.days, 1, 3650);
      const companyId = await cli().companyId(options.company);
      const kept =
        days === undefined
          ? await cli().audit().getRetention({ companyId })
          : await cli().audit().setRetention({ companyId, days });
      cli().print(kept, `events kept ${kept.days} days`);
    });
}

/** The companies' webhooks and their deliveries (docs/operations.md, "Audit trail and webhooks"). */
export function webhookCommands(program: Command, cli: () => Cli): void {
  const webhooks = program
    .command("webhooks")
    .description(
      "a company's webhooks: HTTPS endpoints sent its security events, signed per the Standard Webhooks scheme",
    );
  const ofWebhook = (command: Command) =>
    command
      .requiredOption("--company <code>", "the company's code")
      .requiredOption("--webhook <id>", "the webhook's id (webhooks list)");

  webhooks
    .command("create")
    .description("subscribe an HTTPS endpoint to some event types; prints its signing secret this once")
    .requiredOption("--company <code>", "the company's code")
    .requiredOption("--url <https-url>", "where the events are posted: https, at a public address")
    .requiredOption("--type <type>", "an event type it receives (repeat for several)", collect)
    .option("--description <text>", "what the endpoint is", "")
    .action(async (options: OfCompany & { url: string; type: string[]; description: string }) => {
      const created = await cli()
        .audit()
        .createWebhook({
          companyId: await cli().companyId(options.company),
          url: options.url,
          eventTypes: options.type,
          description: options.description,
        });
      printSecret(cli(), created.webhook, created.secret);
    });

  webhooks
    .command("list")
    .description("list a company's webhooks (never their secrets)")
    .requiredOption("--company <code>", "the company's code")
    .action(async (options: OfCompany) => {
      const { webhooks: listed } = await cli()
        .audit()
        .listWebhooks({ companyId: await cli().companyId(options.company) });
      cli().printList(listed, webhookRecords);
    });

  ofWebhook(
    webhooks
      .command("update")
      .description(
        "change a webhook's URL, event types or description, or enable or disable it; what is not given stays",
      ),
  )
    .option("--url <https-url>", "a new URL")
    .option("--type <type>", "the event types it receives, all of them (repeat for several)", collect)
    .option("--description <text>", "a new description")
    .option("--enable", "enable it (one a receiver's 410 disabled: its pending deliveries go again)")
    .option("--disable", "disable it: no deliveries are made for it until it is enabled")
    .action(
      async (
        options: OfWebhook & {
          url?: string;
          type?: string[];
          description?: string;
          enable?: boolean;
          disable?: boolean;
        },
      ) => {
        const enabled = enabledOption(options);
        const { webhook } = await cli()
          .audit()
          .updateWebhook({
            companyId: await cli().companyId(options.company),
            webhookId: options.webhook,
            url: options.url,
            eventTypes: options.type && { types: options.type },
            description: options.description,
            enabled,
          });
        if (webhook) cli().printRecord(webhook, webhookRecords);
      },
    );

  ofWebhook(webhooks.command("delete").description("delete a webhook and its deliveries")).action(
    async (options: OfWebhook) => {
      await cli()
        .audit()
        .deleteWebhook({ companyId: await cli().companyId(options.company), webhookId: options.webhook });
      cli().print({ deleted: options.webhook }, `deleted ${options.webhook}`);
    },
  );

  ofWebhook(
    webhooks
      .command("rotate")
      .description(
        "give a webhook a new signing secret, printed this once; the old one signs beside it for the overlap",
      ),
  )
    .option(
      "--overlap-seconds <seconds>",
      "how long the old secret keeps signing, up to 604800 (a day unless given)",
    )
    .action(async (options: OfWebhook & { overlapSeconds?: string }) => {
      const overlapSeconds = wholeNumberOption("--overlap-seconds", options.overlapSeconds, 1, 604_800) ?? 0;
      const rotated = await cli()
        .audit()
        .rotateWebhookSecret({
          companyId: await cli().companyId(options.company),
          webhookId: options.webhook,
          overlapSeconds,
        });
      printSecret(cli(), rotated.webhook, rotated.secret);
    });

  ofWebhook(
    webhooks.command("deliveries").description("a webhook's deliveries, newest first, a page at a time"),
  )
    .option("--state <state>", "only deliveries pending, succeeded or dead")
    .option("--limit <n>", "deliveries on the page, 1 to 1000 (100 unless given)")
    .option("--page-token <token>", "the next page, as the previous one named it")
    .action(async (options: OfWebhook & { state?: string; limit?: string; pageToken?: string }) => {
      const request = {
        webhookId: options.webhook,
        state: deliveryStateOption(options.state),
        pageSize: wholeNumberOption("--limit", options.limit, 1, 1000) ?? 0,
        pageToken: options.pageToken ?? "",
      };
      const page = await cli()
        .audit()
        .listDeliveries({ companyId: await cli().companyId(options.company), ...request });
      cli().printList(page.deliveries, deliveryRecords);
      nextPage(cli(), page.nextPageToken);
    });

  ofWebhook(
    webhooks
      .command("replay")
      .description(
        "send deliveries again from their first attempt: those named, or every dead one of the webhook",
      ),
  )
    .option("--delivery <id>", "a delivery to send again (repeat for several)", collect)
    .action(async (options: OfWebhook & { delivery?: string[] }) => {
      const { queued } = await cli()
        .audit()
        .replayDeliveries({
          companyId: await cli().companyId(options.company),
          webhookId: options.webhook,
          deliveryIds: options.delivery ?? [],
        });
      cli().print({ queued }, `queued ${queued} deliveries`);
    });
}
