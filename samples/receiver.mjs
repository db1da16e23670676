// A tiny callback receiver for the bulk jobs (docs/bulk-jobs.md): verifies the Standard Webhooks
// signature, drops repeats by webhook-id, and writes each result next to it.
//   HLA_SERVICE_WEBHOOK_SECRET=whsec_... node samples/receiver.mjs [port]
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { Webhook } from 'standardwebhooks';

const webhook = new Webhook(process.env.HLA_SERVICE_WEBHOOK_SECRET);
const seen = new Set();
const port = Number(process.argv[2] ?? 9000);

http
  .createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      try {
        webhook.verify(body, req.headers, { jsonParse: false }); // throws unless signed with our secret
      } catch {
        res.writeHead(400).end();
        return;
      }
      const id = req.headers['webhook-id'];
      if (!seen.has(id)) {
        seen.add(id);
        const failed = req.headers['content-type'].startsWith('application/json');
        const file = `${id}.${failed ? 'json' : 'csv'}`;
        writeFileSync(file, body);
        console.log(`${id}: ${failed ? 'job failed' : 'result'} → ${file} (${body.length} bytes)`);
      }
      res.writeHead(204).end(); // 2xx, also for a repeat: the service stops retrying
    });
  })
  .listen(port, () => console.log(`listening on :${port}`));
