import { SMTPServer } from "smtp-server";
let n = 0; const t0 = Date.now();
const server = new SMTPServer({ authOptional: true, disabledCommands: ["STARTTLS"], onData(stream, session, cb) { stream.on("data", () => {}); stream.on("end", () => { n++; if (n % 100 === 0) console.log(n, ((Date.now()-t0)/1000).toFixed(1)); cb(); }); } });
server.listen(2526, "127.0.0.1", () => console.log("listening"));
