// The declarative WebMCP attributes (a draft; browsers without it ignore them).
import 'react';

// The type parameters must repeat React's own declarations for the interfaces to merge.
/* eslint-disable @typescript-eslint/no-unused-vars */
declare module 'react' {
  interface FormHTMLAttributes<T> {
    /** The tool's name for browser assistants. */
    toolname?: string;
    /** What the tool does and what happens next. */
    tooldescription?: string;
  }
  interface InputHTMLAttributes<T> {
    /** What the field means, with an example, for browser assistants. */
    toolparamdescription?: string;
  }
}
