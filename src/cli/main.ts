/**
 * `hla`: the service's operations on the command line. Each command prints the JSON body the API
 * returns for the same request (the same functions of src/operations compute both), so a lab can
 * pipe a report through it. Exit status: 0 answered (HTTP 200), 1 not found (404), 2 bad usage or
 * invalid request (400/422), 3 the release could not be loaded.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { RequestError } from '../errors.ts';
import type { Engine } from '../nomenclature/engine-types.ts';
import {
  alleleOperation,
  healthOperation,
  matchOperation,
  normalizeOperation,
  verifyOperation,
} from '../operations/index.ts';
import type { ReleaseSource } from '../reference/release-source.ts';
import { releaseSourceFromEnv } from '../reference/release-source.ts';
import { loadEngine } from '../releases.ts';

export const EXIT = { ok: 0, notFound: 1, usage: 2, releaseUnavailable: 3 } as const;

const USAGE = `Usage: hla [options] <command> [arguments]

Commands (each prints the JSON body the API returns for the same request):
  verify [FILE|-]         classify every allele name in a text (FILE, or standard input)
  normalize TYPING...     resolve typings; with no TYPING, one typing per line of standard input
  allele NAME             facts for one name (exit 1 when it is not assigned)
  match [FILE|-]          a match request {framework, recipient, donor} from FILE or standard input
  health                  the loaded release and its allele count
  diff --from TAG --to TAG [--format json|csv] [--names FILE]
                          verdicts that change between two releases

Options:
  --data-dir DIR          local mirror of the release files (HLA_SERVICE_DATA_DIR)
  --tag TAG               release tag (HLA_SERVICE_TAG, default v3.65.0-alpha)
  --offline               never download release files (HLA_SERVICE_OFFLINE=true)
  -h, --help              this text

Exit status: 0 answered, 1 not found, 2 bad usage or invalid request, 3 release not loadable.`;

export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly readStdin: () => Promise<string>;
  readonly env: NodeJS.ProcessEnv;
}

class UsageError extends Error {}

function printJson(io: CliIo, body: unknown): void {
  io.stdout(`${JSON.stringify(body, null, 2)}\n`);
}

async function readInput(io: CliIo, file: string | undefined): Promise<string> {
  if (file === undefined || file === '-') return io.readStdin();
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new RequestError('bad_json', `${what} is not valid JSON`);
  }
}

type Command = (engine: Engine, args: string[], io: CliIo) => Promise<unknown>;

const COMMANDS: Record<string, Command> = {
  verify: async (engine, args, io) => verifyOperation(engine, { text: await readInput(io, args[0]) }),
  normalize: async (engine, args, io) => {
    const typings =
      args.length > 0 ? args : (await io.readStdin()).split(/\r?\n/).filter((line) => line.trim() !== '');
    return normalizeOperation(engine, { typings });
  },
  allele: async (engine, args) => {
    if (args.length !== 1) throw new UsageError('allele takes exactly one NAME');
    return alleleOperation(engine, args[0]);
  },
  match: async (engine, args, io) => matchOperation(engine, parseJson(await readInput(io, args[0]), 'the match request')),
  health: async (engine) => healthOperation(engine, process.uptime()),
};

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: false,
      options: {
        'data-dir': { type: 'string' },
        tag: { type: 'string' },
        offline: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    io.stderr(`${(error as Error).message}\n${USAGE}\n`);
    return EXIT.usage;
  }
  const [command, ...args] = parsed.positionals;
  if (parsed.values.help || command === undefined) {
    (command === undefined && !parsed.values.help ? io.stderr : io.stdout)(`${USAGE}\n`);
    return command === undefined && !parsed.values.help ? EXIT.usage : EXIT.ok;
  }

  let source: ReleaseSource;
  try {
    const env = { ...io.env };
    if (typeof parsed.values['data-dir'] === 'string') env.HLA_SERVICE_DATA_DIR = parsed.values['data-dir'];
    if (typeof parsed.values.tag === 'string') env.HLA_SERVICE_TAG = parsed.values.tag;
    if (parsed.values.offline === true) env.HLA_SERVICE_OFFLINE = 'true';
    source = releaseSourceFromEnv(env);
  } catch (error) {
    io.stderr(`hla: ${(error as Error).message}\n`);
    return EXIT.usage;
  }

  if (command === 'diff') {
    const { runDiffCommand } = await import('./diff-command.ts');
    return runDiffCommand(argv.slice(argv.indexOf('diff') + 1), { io, source });
  }
  const run = COMMANDS[command];
  if (!run) {
    io.stderr(`hla: unknown command '${command}'\n${USAGE}\n`);
    return EXIT.usage;
  }

  let engine: Engine;
  try {
    engine = await loadEngine(source);
  } catch (error) {
    io.stderr(`hla: release ${source.tag} could not be loaded: ${(error as Error).message}\n`);
    return EXIT.releaseUnavailable;
  }

  try {
    printJson(io, await run(engine, args, io));
    return EXIT.ok;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`hla: ${error.message}\n${USAGE}\n`);
      return EXIT.usage;
    }
    if (error instanceof RequestError) {
      printJson(io, { detail: error.detail });
      return error.status === 404 ? EXIT.notFound : EXIT.usage;
    }
    throw error;
  }
}

export function processIo(): CliIo {
  // `hla verify report.txt | head` closes the pipe early: that is the reader's choice, not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    env: process.env,
  };
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (invokedDirectly) {
  runCli(process.argv.slice(2), processIo()).then((code) => {
    process.exitCode = code;
  });
}
