"""Words: normalisation, stems, the vocabulary and its synonym groups, number words, typo
tolerance and the English word list that keeps real words uncorrected."""
