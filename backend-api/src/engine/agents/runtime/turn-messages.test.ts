import { describe, expect, it } from 'vitest';
import { MAX_TOOL_RESULT_CHARS, toolMessage } from './turn-messages.js';

const call = { id: 'call_1', name: 'stays_details', arguments: {} };

describe('a tool result as the model reads it', () => {
  it('is the result as JSON when nothing was withheld', () => {
    expect(toolMessage(call, { ok: true, result: { name: 'Casa Alfama' } }).content).toBe('{"name":"Casa Alfama"}');
  });

  it('says where and why projection withheld values, after the JSON', () => {
    const message = toolMessage(call, {
      ok: true,
      result: { gallery: { photos: ['https://img.example/1.jpg'] } },
      withheld: [{ path: 'gallery.photos[3]', reason: 'origin_not_declared' }],
    });
    const [json, note] = String(message.content).split('\n\n');
    expect(JSON.parse(json ?? '')).toEqual({ gallery: { photos: ['https://img.example/1.jpg'] } });
    expect(note).toMatch(/^Withheld from this result .*gallery\.photos\[3\] \(outside the declared origins\)/);
  });

  it('keeps the note whole when the JSON is cut', () => {
    const message = toolMessage(call, {
      ok: true,
      result: 'x'.repeat(MAX_TOOL_RESULT_CHARS + 10),
      withheld: [{ path: 'description', reason: 'html_script' }],
    });
    expect(String(message.content)).toMatch(/… \[truncated\]\n\nWithheld from this result .*description/);
  });
});
