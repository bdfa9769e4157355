/** `node --import <this file> script.ts`: run TypeScript sources in a child process. */
import { register } from "node:module";

register("./ts-loader-hooks.mjs", import.meta.url);
