// One access-log line per request, written when the answer is sent: Fastify's own request logging writes two
// (one on arrival, one on completion), and each is a synchronous write to stdout, a measurable share of the
// cost of a small read. The completion line carries what the arrival line did (method, URL, client).
import type { FastifyReply, FastifyRequest } from "fastify";
import { LogController } from "fastify";

export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, "request errored");
    else reply.log.info(line, "request completed");
  }
}
