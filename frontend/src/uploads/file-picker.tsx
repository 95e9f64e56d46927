import type { RefObject } from 'react';

/** A visible button-like label for a visually hidden file input (the label is what people see and press). */
export function FilePicker({
  inputRef,
  inputId,
  hintId,
  label,
  labelClassName,
  accept,
  disabled,
  onFiles,
}: {
  inputRef: RefObject<HTMLInputElement | null>;
  inputId: string;
  hintId: string;
  label: string;
  labelClassName: string;
  accept: string;
  disabled: boolean;
  onFiles: (files: FileList | null) => void;
}) {
  return (
    <>
      <label htmlFor={inputId} className={labelClassName}>
        {label}
      </label>
      <input
        ref={inputRef}
        id={inputId}
        className="dropzone__input"
        type="file"
        accept={accept}
        aria-describedby={hintId}
        disabled={disabled}
        onChange={(event) => onFiles(event.currentTarget.files)}
      />
    </>
  );
}
