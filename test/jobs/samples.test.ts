/** The files in samples/ do what docs/bulk-jobs.md says they do. */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { processBulkJob } from '../../src/jobs/processor.ts';
import { CallbackSender } from '../../src/jobs/webhook.ts';
import type { Engine } from '../../src/nomenclature/engine-types.ts';
import { loadTestEngine } from '../support/engine.ts';
import { eventually, TEST_SECRET } from './helpers.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const sample = (name: string) => readFileSync(path.join(repoRoot, 'samples', name));
const TAG = 'v3.65.0-alpha';

let engine: Engine;
beforeAll(async () => {
  engine = await loadTestEngine();
});

function records(csv: Buffer): Record<string, string>[] {
  const [header, ...rows] = parse(csv) as string[][];
  return rows.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i]])));
}

describe('samples', () => {
  it('registry-normalize.csv: names of every era; the short row 11 gets an error cell', async () => {
    const result = await processBulkJob(engine, { kind: 'normalize', tag: TAG, columns: ['hla_a', 'hla_b', 'hla_c', 'hla_drb1'] }, { csv: sample('registry-normalize.csv') });
    const rows = records(result.csv);
    expect(rows).toHaveLength(12);
    expect(result.rowErrors).toBe(1);
    expect(rows[10].error).toBe('row 11: 4 fields where the header has 7');
    const flags = rows.flatMap((row) => ['hla_a', 'hla_b', 'hla_c', 'hla_drb1'].map((c) => row[`${c}_flags`]));
    for (const flag of ['deprecated_name', 'null_allele', 'nonexistent_allele', 'xx_code', 'g_group_name', 'mac_code', 'lg_notation']) {
      expect(flags.join('|'), flag).toContain(flag);
    }
  });

  it('donor-search: the pre-2010-named full match ranks first, the short row last', async () => {
    const recipient = JSON.parse(sample('donor-search/recipient.json').toString()) as never;
    const result = await processBulkJob(engine, { kind: 'match', tag: TAG, mode: 'search', framework: '10/10' }, { csv: sample('donor-search/donors.csv'), recipient });
    const rows = records(result.csv);
    expect(rows[0]).toMatchObject({ rank: '1', donor_id: 'D-1002', count: '10/10' });
    expect(rows.at(-1)).toMatchObject({ donor_id: 'D-1008', error: 'row 8: 5 fields where the header has 12' });
  });

  it('pairs.csv: one scored row per pair', async () => {
    const result = await processBulkJob(engine, { kind: 'match', tag: TAG, mode: 'pairs', framework: '8/8' }, { csv: sample('pairs.csv') });
    const rows = records(result.csv);
    expect(rows.map((row) => [row.pair_id, row.count])).toEqual([
      ['P-01', '8/8'],
      ['P-02', '7/8'],
      ['P-03', '6/6'],
      ['P-04', '7/8'],
      ['P-05', '6/8'],
    ]);
    expect(rows[3].flags).toBe('null_allele');
  });

  it('report.txt: deleted and made-up names among valid ones', () => {
    const verdict = engine.verify(sample('report.txt').toString());
    expect(verdict.clean).toBe(false);
    expect(verdict.counts.deleted).toBeGreaterThan(0);
    expect(verdict.counts.hallucinated).toBeGreaterThan(0);
    expect(verdict.counts.valid).toBeGreaterThan(5);
    expect(verdict.counts.out_of_scope).toBe(1);
  });

  it('receiver.mjs verifies signatures, keeps one file per webhook-id, refuses forgeries', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hla-receiver-'));
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const child = spawn(process.execPath, [path.join(repoRoot, 'samples/receiver.mjs'), String(port)], {
      cwd: dir,
      env: { ...process.env, HLA_SERVICE_WEBHOOK_SECRET: TEST_SECRET },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      await eventually(() => expect(output).toContain('listening'));
      const url = `http://127.0.0.1:${port}/hooks`;
      const policy = { attempts: 1, backoffMs: 1, maxBackoffMs: 1, timeoutMs: 5000 };
      const sender = new CallbackSender({ secret: TEST_SECRET, policy, allowPrivate: true });
      const message = { id: 'msg_sample', body: Buffer.from('a,b\n1,2\n'), contentType: 'text/csv; charset=utf-8' };
      expect((await sender.deliver(url, message)).delivered).toBe(true);
      expect((await sender.deliver(url, message)).delivered).toBe(true); // a repeat: 2xx, not written twice
      expect(readFileSync(path.join(dir, 'msg_sample.csv'), 'utf8')).toBe('a,b\n1,2\n');
      expect(output.match(/msg_sample:/g)).toHaveLength(1);
      const forged = new CallbackSender({ secret: `whsec_${Buffer.alloc(32, 1).toString('base64')}`, policy, allowPrivate: true });
      expect(await forged.deliver(url, { ...message, id: 'msg_forged' })).toMatchObject({ delivered: false, lastFailure: 'HTTP 400' });
      expect(existsSync(path.join(dir, 'msg_forged.csv'))).toBe(false);
    } finally {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
