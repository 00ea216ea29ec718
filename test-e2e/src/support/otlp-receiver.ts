import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
}
interface OtlpSpanJson {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: Array<{ key: string; value: OtlpValue }>;
}

export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, string | number | undefined>;
}

/** An OTLP/HTTP (JSON) trace receiver on loopback, keeping every span it is sent. */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** Every request body as received, to search for secrets. */
  readonly bodies: string[] = [];

  private constructor(
    readonly endpoint: string,
    private readonly server: Server,
  ) {}

  static async start(): Promise<OtlpReceiver> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const receiver = new OtlpReceiver(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, server);
    server.on("request", async (request, response) => {
      let body = "";
      for await (const chunk of request) body += chunk;
      if (request.url === "/v1/traces") receiver.#take(body);
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
    return receiver;
  }

  #take(body: string): void {
    this.bodies.push(body);
    const payload = JSON.parse(body) as {
      resourceSpans?: Array<{
        resource?: { attributes?: Array<{ key: string; value: OtlpValue }> };
        scopeSpans?: Array<{ spans?: OtlpSpanJson[] }>;
      }>;
    };
    for (const resourceSpans of payload.resourceSpans ?? []) {
      const service =
        resourceSpans.resource?.attributes?.find((a) => a.key === "service.name")?.value.stringValue ?? "";
      for (const scope of resourceSpans.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          this.spans.push({
            service,
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId ?? "",
            name: span.name,
            kind: span.kind,
            attributes: Object.fromEntries(
              (span.attributes ?? []).map((a) => [
                a.key,
                a.value.stringValue ??
                  (a.value.intValue === undefined ? undefined : Number(a.value.intValue)),
              ]),
            ),
          });
        }
      }
    }
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
