"""What a person watches: a tab's live frames (one screencast per tab, shared by its viewers and a
recording), recordings encoded to GIF, WebM or MP4, and screenshots annotated with ref boxes."""
