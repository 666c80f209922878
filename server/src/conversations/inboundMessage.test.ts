import { describe, expect, it } from 'vitest';
import { describeInbound, previewText } from './inboundMessage';

describe('describeInbound', () => {
  it('reads a quick-reply tap: its payload, its text and the message it answers', () => {
    const described = describeInbound({ type: 'button', id: 'w1', context: { id: 'wamid.OUT' }, button: { payload: 'sandesh:12:00112233aabbccdd', text: 'Yes please' } });
    expect(described).toMatchObject({ kind: 'button', text: 'Yes please', buttonText: 'Yes please', buttonPayload: 'sandesh:12:00112233aabbccdd', contextId: 'wamid.OUT' });
  });

  it("reads a media message's id, type, file name and caption", () => {
    const described = describeInbound({ type: 'document', document: { id: '77', mime_type: 'application/pdf', filename: 'Order.pdf', caption: 'Invoice' } });
    expect(described).toMatchObject({ kind: 'document', text: 'Invoice', media: { id: '77', mime: 'application/pdf', filename: 'Order.pdf' } });
  });

  it('links a reaction to the message it reacts to', () => {
    expect(describeInbound({ type: 'reaction', reaction: { message_id: 'wamid.OUT', emoji: '❤️' } })).toMatchObject({ kind: 'reaction', contextId: 'wamid.OUT', text: '❤️' });
  });

  it('keeps a kind Meta adds later as it came', () => {
    expect(describeInbound({ type: 'hologram', hologram: { depth: 3 } })).toMatchObject({ kind: 'hologram', details: { depth: 3 }, text: null });
  });

  it('previews a message without text by its kind', () => {
    expect(previewText('sticker', null)).toBe('[sticker]');
  });
});
