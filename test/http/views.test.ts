import fs from 'node:fs';
import express from 'express';
import { useViews } from '../../src/http/views';

/** The views' settings (src/http/views.ts): includes are found without a look at the disk per render. */
describe('useViews', () => {
  it('when a view with includes is rendered with the view cache on, then no file is looked for on disk', async () => {
    const app = express();
    useViews(app);
    app.set('view cache', true);
    const locals = { connected: false, flash: undefined, csrf: () => '', title: 'Cancelled', userName: undefined };
    const render = () =>
      new Promise<string>((resolve, reject) =>
        app.render('cancelled', locals, (err: Error | null, html?: string) =>
          err ? reject(err) : resolve(html ?? ''),
        ),
      );
    const first = await render();
    expect(first).toContain('</html>');
    const exists = jest.spyOn(fs, 'existsSync');
    const stat = jest.spyOn(fs, 'statSync');
    try {
      expect(await render()).toBe(first);
      expect(exists).not.toHaveBeenCalled();
      expect(stat).not.toHaveBeenCalled();
    } finally {
      exists.mockRestore();
      stat.mockRestore();
    }
  });
});
