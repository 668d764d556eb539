import { BookButton } from './book-button.tsx';

/** The 'Book Your Session' button that ends every view. */
export function ClosingCall() {
  return (
    <div className="closing-call">
      <BookButton />
    </div>
  );
}
