import { Users } from 'lucide-react';
import { Link } from 'react-router-dom';
import { messages } from '@shared/messages';

/** The send screens' way to the send to a segment or tags of the contact book instead of a list or a file. */
export function AudienceSendLink() {
  return (
    <Link to="/user/contacts/send" className="mt-1 inline-flex items-center gap-1 text-sm font-medium text-emerald-700 underline-offset-2 hover:underline dark:text-emerald-400">
      <Users className="size-4" aria-hidden="true" />
      {messages.contactScreens.fromQuickSend}
    </Link>
  );
}
