import { describe, expect, it } from 'vitest';
import { messageAsError } from './adminTemplates';

describe('messageAsError', () => {
  it('puts a failed answer’s message where the client reads the error text', () => {
    expect(messageAsError({ error: 'x', message: 'Only pending templates can be approved or rejected', code: 'not_pending' }, 409)).toEqual({
      error: 'Only pending templates can be approved or rejected',
      message: 'Only pending templates can be approved or rejected',
      code: 'not_pending',
    });
    expect(messageAsError({ message: 'A rejection reason is required' }, 400)).toEqual({
      message: 'A rejection reason is required',
      error: 'A rejection reason is required',
    });
  });

  it('leaves successful answers, bodies without a message and non-objects alone', () => {
    const ok = { success: true, message: 'Template approved' };
    expect(messageAsError(ok, 200)).toBe(ok);
    const noMessage = { error: 'Template not found' };
    expect(messageAsError(noMessage, 404)).toBe(noMessage);
    const blank = { error: 'Template not found', message: ' ' };
    expect(messageAsError(blank, 404)).toBe(blank);
    expect(messageAsError('<html>Bad gateway</html>', 502)).toBe('<html>Bad gateway</html>');
    expect(messageAsError(null, 500)).toBeNull();
  });
});
