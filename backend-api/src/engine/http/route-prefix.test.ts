import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { onlyUnder } from './route-prefix.js';

function app() {
  const served = express.Router();
  served.get('/.well-known/thing', (_req, res) => void res.json({ served: 'group' }));
  const server = express();
  server.use(onlyUnder('/.well-known/', [served]));
  server.use((_req, res) => void res.status(404).json({ served: 'fallthrough' }));
  return server;
}

describe('onlyUnder', () => {
  it('lets the group serve paths under its prefix', async () => {
    const res = await request(app()).get('/.well-known/thing');
    expect(res.body).toEqual({ served: 'group' });
  });

  it('matches the prefix in any letter case, as Express matches routes', async () => {
    const res = await request(app()).get('/.WELL-KNOWN/Thing');
    expect(res.body).toEqual({ served: 'group' });
  });

  it('passes other paths on without entering the group, the dot of the prefix taken literally', async () => {
    expect((await request(app()).get('/xwell-known/thing')).body).toEqual({ served: 'fallthrough' });
    expect((await request(app()).get('/other')).body).toEqual({ served: 'fallthrough' });
  });
});
