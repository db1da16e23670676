// Demo page: plain browser JavaScript, no build step. Everything shown that came from a response
// or from the user is written with textContent, never as HTML.

const STATUSES = ['valid', 'group', 'deleted', 'fabricated_group', 'hallucinated', 'mac_code', 'out_of_scope'];

const $ = (id) => document.getElementById(id);

function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (className) node.className = className;
  return node;
}

function showError(message) {
  const box = $('error');
  box.textContent = message;
  box.hidden = false;
}

function clearError() {
  $('error').hidden = true;
}

async function call(method, path, body) {
  const headers = { accept: 'application/json' };
  const key = $('api-key').value.trim();
  if (key) headers['x-api-key'] = key;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await response.json().catch(() => ({ detail: `HTTP ${response.status}` }));
  if (!response.ok) {
    const retry = response.headers.get('retry-after');
    throw new Error(`${response.status}: ${data.detail}${retry ? ` (retry in ${retry} s)` : ''}`);
  }
  if (data.attribution) $('attribution').textContent = data.attribution;
  if (data.release) $('release').textContent = data.release;
  return data;
}

function withButton(button, action) {
  button.addEventListener('click', async () => {
    clearError();
    button.disabled = true;
    try {
      await action();
    } catch (error) {
      showError(error.message);
    } finally {
      button.disabled = false;
    }
  });
}

// ---- verify ----------------------------------------------------------------------------------

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The text with every classified token marked by its status (same boundaries as the service). */
function renderHighlight(container, text, tokens) {
  container.replaceChildren();
  const status = new Map(tokens.map((t) => [t.token, t.status]));
  const names = [...status.keys()].sort((a, b) => b.length - a.length);
  if (names.length === 0) {
    container.append(text);
    return;
  }
  const pattern = new RegExp(
    `(?<![A-Za-z0-9_])(?:HLA-)?(${names.map(escapeRegExp).join('|')})(?![A-Za-z0-9_:])`,
    'g',
  );
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const start = match.index + match[0].length - match[1].length;
    container.append(text.slice(last, start));
    const mark = element('mark', match[1], `token status-${status.get(match[1])}`);
    mark.dataset.status = status.get(match[1]);
    mark.title = status.get(match[1]);
    container.append(mark);
    last = start + match[1].length;
  }
  container.append(text.slice(last));
}

withButton($('verify-run'), async () => {
  const text = $('verify-text').value;
  const result = await call('POST', '/v1/verify', { text });
  $('verify-result').hidden = false;
  const clean = $('verify-clean');
  clean.textContent = result.clean ? 'Clean: no deleted, fabricated or hallucinated names.' : 'Not clean: see the marked names.';
  clean.className = `verdict ${result.clean ? 'clean' : 'not-clean'}`;

  const counts = $('verify-counts');
  counts.replaceChildren();
  for (const status of STATUSES) {
    const item = element('li', null, `count status-${status}`);
    item.dataset.status = status;
    item.append(element('span', status.replaceAll('_', ' '), 'label'), ' ', element('strong', result.counts[status] ?? 0));
    counts.append(item);
  }

  renderHighlight($('verify-highlight'), text, result.tokens);

  const body = $('verify-tokens').tBodies[0];
  body.replaceChildren();
  for (const token of result.tokens) {
    const row = element('tr');
    row.append(
      element('td', token.token, 'mono'),
      element('td', token.status, `status-cell status-${token.status}`),
      element('td', token.current_2field ?? token.successor ?? '', 'mono'),
      element('td', token.g_group ?? '', 'mono'),
      element('td', token.note ?? ''),
    );
    body.append(row);
  }
});

// ---- normalize -------------------------------------------------------------------------------

withButton($('normalize-run'), async () => {
  const typings = $('normalize-input')
    .value.split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const result = await call('POST', '/v1/normalize', { typings });
  $('normalize-result').hidden = false;
  const body = $('normalize-rows').tBodies[0];
  body.replaceChildren();
  for (const row of result.rows) {
    const tr = element('tr');
    tr.className = row.current_name === 'UNRESOLVABLE' ? 'unresolvable' : 'resolved';
    tr.append(
      element('td', row.reported, 'mono'),
      element('td', row.current_name, 'mono'),
      element('td', row.allele_2field, 'mono'),
      element('td', row.g_group, 'mono'),
      element('td', row.flags.join(', ')),
    );
    body.append(tr);
  }
});

// ---- match -----------------------------------------------------------------------------------

/** "A*01:01 A*02:01 B*07:02 …" → { A: [...], B: [...] }; `HLA-` dropped, `Cw` counted as C. */
function typingOf(text) {
  const typing = {};
  for (const name of text.split(/[\s,;+]+/)) {
    const star = name.indexOf('*');
    if (star <= 0) continue;
    let locus = name.slice(0, star).replace(/^HLA-/, '');
    if (locus === 'Cw') locus = 'C';
    (typing[locus] ??= []).push(name);
  }
  return typing;
}

withButton($('match-run'), async () => {
  const result = await call('POST', '/v1/match', {
    framework: $('match-framework').value,
    recipient: typingOf($('match-recipient').value),
    donor: typingOf($('match-donor').value),
  });
  $('match-result').hidden = false;
  $('match-count').textContent = result.count;
  $('match-hvg').textContent = result.hvg_mismatches;
  $('match-gvh').textContent = result.gvh_mismatches;
  const verdicts = $('match-verdicts');
  verdicts.replaceChildren();
  for (const [locus, verdict] of Object.entries(result.verdicts)) {
    const item = element('li', null, `count verdict-${verdict}`);
    item.dataset.verdict = verdict;
    item.append(element('span', locus, 'label'), ' ', element('strong', verdict));
    verdicts.append(item);
  }
  $('match-flags').textContent = result.flags.length ? `Flags: ${result.flags.join(', ')}` : 'No flags.';
});

// ---- release ---------------------------------------------------------------------------------

fetch('/healthz')
  .then((response) => response.json())
  .then((health) => {
    $('release').textContent = health.release;
    $('release-alleles').textContent = `(${health.alleles.toLocaleString('en')} named alleles)`;
  })
  .catch(() => {
    $('release').textContent = 'unknown';
  });

document.body.dataset.ready = 'true';
