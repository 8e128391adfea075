;; Compose one mail with Emacs message-mode and hand it to a stand-in sendmail (generate.sh).
(require 'message)
(require 'mml)
(require 'mml-sec)
(setq message-send-mail-function 'message-send-mail-with-sendmail
      message-sendmail-envelope-from nil
      user-full-name "Jean Dupont" user-mail-address "jean@example.fr"
      mail-host-address "example.fr"
      message-interactive nil
      mml-secure-openpgp-signers '("jean@example.fr")
      epg-pinentry-mode 'loopback)
(defun pbem-corpus-send (sendmail subject body)
  (setq sendmail-program sendmail)
  (message-mail "gm@pbem.test" subject)
  (message-goto-body)
  (insert body)
  (message-send-and-exit))
