/**
 * A mail server on 127.0.0.1 that answers as a test scripts it, for answers smtp-server does not
 * give: a greeting refused, a STARTTLS it requires without offering it, a command never answered.
 * Plain SMTP only; it reads one command a line and writes the script's reply, or nothing.
 */
import { once } from "node:events";
import { type AddressInfo, createServer, type Socket } from "node:net";

export interface ScriptedSmtp {
  port: number;
  url: string;
  /** Every command line clients wrote (AUTH lines included: no test gives a real password). */
  commands: string[];
  close(): Promise<void>;
}

export interface Script {
  /** Written on each connection; undefined: no greeting, ever. */
  greeting?: string;
  /**
   * The answer to a command line; undefined: none, ever. EHLO, RSET, NOOP and QUIT get the usual
   * answers when it gives none.
   */
  reply?: (command: string) => string | undefined;
  /** Whether to leave a command line unanswered, ever, even one that has a usual answer. */
  silent?: (command: string) => boolean;
  /** Called with each command line as it arrives, before it is answered. */
  onCommand?: (command: string) => void;
  /** Called when a client connects. */
  onConnection?: () => void;
}

export async function startScriptedSmtp(script: Script): Promise<ScriptedSmtp> {
  const commands: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    script.onConnection?.();
    if (script.greeting !== undefined) socket.write(`${script.greeting}\r\n`);
    let buffered = "";
    socket.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      const lines = buffered.split("\r\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) answer(socket, line);
    });
  });
  const answer = (socket: Socket, line: string) => {
    commands.push(line);
    script.onCommand?.(line);
    if (script.silent?.(line) === true) return;
    const scripted = script.reply?.(line) ?? usual(line);
    if (scripted !== undefined) socket.write(`${scripted}\r\n`);
    if (/^QUIT/i.test(line)) socket.end();
  };
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    commands,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The answers of a server that has nothing to say of these commands. */
function usual(line: string): string | undefined {
  if (/^EHLO /i.test(line)) return "250-test.example\r\n250 PIPELINING";
  if (/^(RSET|NOOP)$/i.test(line)) return "250 2.0.0 Ok";
  if (/^QUIT$/i.test(line)) return "221 2.0.0 Bye";
  return undefined;
}
