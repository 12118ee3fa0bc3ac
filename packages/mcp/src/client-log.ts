import type { LoggingLevel, LoggingMessageNotification, Notification, Server } from '@modelcontextprotocol/server';

/** One message for the clients' logs. */
export interface ClientLogMessage {
  level: LoggingLevel;
  text: string;
}

/** How many messages a client that connects later still gets. */
export const KEPT_CLIENT_LOG_MESSAGES = 100;

/**
 * What the host wants its MCP clients to show in their logs (a skill package that did not load, an
 * imported server that did not start) — the clients of every server created with it (`log` in
 * `McpServerOptions`). A client gets the last {@link KEPT_CLIENT_LOG_MESSAGES} messages
 * written before it connected, then each new one, as `notifications/message` (logger `nexus`) at or
 * above the level it set with `logging/setLevel`.
 */
export class ClientLog {
  readonly #messages: ClientLogMessage[] = [];
  readonly #listeners = new Set<(message: ClientLogMessage) => void>();

  write(level: LoggingLevel, text: string): void {
    const message = { level, text };
    this.#messages.push(message);
    if (this.#messages.length > KEPT_CLIENT_LOG_MESSAGES) this.#messages.shift();
    for (const listener of this.#listeners) listener(message);
  }

  /** The messages kept, oldest first. */
  get messages(): readonly ClientLogMessage[] {
    return this.#messages;
  }

  /** Calls `listener` with each new message; returns how to stop. */
  follow(listener: (message: ClientLogMessage) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

/** MCP's log levels (those of syslog), least severe first. */
const LEVELS: readonly LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
const SEVERITY = new Map(LEVELS.map((level, index) => [level, index]));

/** What a request handler can send along with its answer (the SDK's `ctx.mcpReq.notify`). */
type SendAlong = (notification: Notification) => Promise<void>;

/**
 * Sends `log` to the client of `server` (one server serves one connection), at or above the level
 * the client sets: at `start` — called by each request handler; only the first call counts — the
 * messages so far, along with that request's answer, then each new one as the server's own.
 */
export function followClientLog(server: Server, log: ClientLog): { start(sendAlong: SendAlong): void; stop(): void } {
  let minimum: LoggingLevel | undefined;
  server.setRequestHandler('logging/setLevel', (request) => {
    minimum = request.params.level;
    return {};
  });
  const notification = ({ level, text }: ClientLogMessage): LoggingMessageNotification | undefined => {
    if (minimum !== undefined && (SEVERITY.get(level) ?? 0) < (SEVERITY.get(minimum) ?? 0)) return undefined;
    return { method: 'notifications/message', params: { level, logger: 'nexus', data: text } };
  };
  let stop: (() => void) | undefined;
  return {
    start(sendAlong) {
      if (stop) return;
      for (const message of log.messages) {
        const backlog = notification(message);
        if (backlog) void sendAlong(backlog).catch(() => undefined);
      }
      stop = log.follow((message) => {
        const live = notification(message);
        if (live && server.transport) void server.notification(live).catch(() => undefined);
      });
    },
    stop() {
      stop?.();
      stop = () => {};
    },
  };
}
