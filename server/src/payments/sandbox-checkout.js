/*
 * Sandesh development sandbox for Razorpay Checkout. Served only outside production at
 * /sandbox/razorpay/checkout.js. It offers the same `window.Razorpay` interface as Razorpay's
 * checkout.js, so the wallet page runs the real flow, but the window is visibly marked and no
 * real money moves: "Pay" asks the Sandesh server to sign the result as Razorpay would, "Decline"
 * fails the attempt as a declined card would (the owner is told, as Razorpay's payment.failed does).
 */
(function () {
  'use strict';
  var scriptUrl = document.currentScript && document.currentScript.src ? document.currentScript.src : '/sandbox/razorpay/checkout.js';
  var serverOrigin = new URL(scriptUrl, window.location.href).origin;

  function formatRupees(paise) {
    return '\u20b9' + new Intl.NumberFormat('en-IN', { maximumFractionDigits: 2 }).format(paise / 100);
  }

  function el(tag, style, text) {
    var node = document.createElement(tag);
    if (style) node.setAttribute('style', style);
    if (text) node.textContent = text;
    return node;
  }

  function SandboxRazorpay(options) {
    if (!(this instanceof SandboxRazorpay)) return new SandboxRazorpay(options);
    this.options = options || {};
    this.listeners = {};
  }

  SandboxRazorpay.prototype.on = function (name, callback) {
    this.listeners[name] = callback;
  };

  SandboxRazorpay.prototype.close = function () {
    if (this.overlay && this.overlay.parentNode) this.overlay.parentNode.removeChild(this.overlay);
    this.overlay = null;
  };

  SandboxRazorpay.prototype.open = function () {
    var self = this;
    var options = this.options;
    var amountText = formatRupees(Number(options.amount || 0));
    var overlay = el('div', 'position:fixed;inset:0;z-index:2147483647;background:rgba(15,23,42,.6);display:flex;align-items:center;justify-content:center;font-family:system-ui,sans-serif');
    var dialog = el('div', 'background:#fff;color:#0f172a;border-radius:12px;width:min(92vw,380px);box-shadow:0 20px 50px rgba(0,0,0,.35);overflow:hidden;border:3px dashed #f59e0b');
    dialog.setAttribute('role', 'dialog');
    dialog.setAttribute('aria-modal', 'true');
    dialog.setAttribute('aria-labelledby', 'sandesh-sandbox-title');
    var banner = el('div', 'background:#f59e0b;color:#111827;font-weight:700;font-size:12px;letter-spacing:.08em;padding:6px 12px;text-align:center', 'SANDBOX \u2014 NO REAL MONEY');
    var body = el('div', 'padding:20px');
    var title = el('h2', 'margin:0 0 4px;font-size:18px', 'Sandbox checkout');
    title.id = 'sandesh-sandbox-title';
    var merchant = el('p', 'margin:0 0 16px;color:#475569;font-size:14px', (options.name || 'Sandesh') + (options.description ? ' \u00b7 ' + options.description : ''));
    var amount = el('p', 'margin:0 0 4px;font-size:28px;font-weight:700', amountText);
    var note = el('p', 'margin:0 0 20px;color:#64748b;font-size:12px', 'Development only: pressing Pay signs the result like Razorpay would. Order ' + options.order_id);
    var error = el('p', 'margin:0 0 12px;color:#b91c1c;font-size:13px;display:none');
    error.setAttribute('role', 'alert');
    var actions = el('div', 'display:flex;gap:8px;justify-content:flex-end');
    var cancel = el('button', 'padding:8px 14px;border-radius:8px;border:1px solid #cbd5e1;background:#fff;color:#0f172a;cursor:pointer', 'Cancel');
    cancel.type = 'button';
    var decline = el('button', 'padding:8px 14px;border-radius:8px;border:1px solid #fca5a5;background:#fff;color:#b91c1c;cursor:pointer', 'Decline');
    decline.type = 'button';
    var pay = el('button', 'padding:8px 14px;border-radius:8px;border:0;background:#059669;color:#fff;font-weight:600;cursor:pointer', 'Pay ' + amountText);
    pay.type = 'button';
    actions.appendChild(cancel);
    actions.appendChild(decline);
    actions.appendChild(pay);
    body.appendChild(title);
    body.appendChild(merchant);
    body.appendChild(amount);
    body.appendChild(note);
    body.appendChild(error);
    body.appendChild(actions);
    dialog.appendChild(banner);
    dialog.appendChild(body);
    overlay.appendChild(dialog);
    document.body.appendChild(overlay);
    this.overlay = overlay;
    pay.focus();

    function dismiss() {
      self.close();
      if (options.modal && typeof options.modal.ondismiss === 'function') options.modal.ondismiss();
    }

    cancel.addEventListener('click', dismiss);
    overlay.addEventListener('keydown', function (event) {
      if (event.key === 'Escape') dismiss();
    });
    function postToSandbox(path) {
      return fetch(serverOrigin + path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ orderId: options.order_id }),
      }).then(function (response) {
        return response.json().then(function (data) {
          if (!response.ok) throw new Error(data && data.error ? data.error : 'Sandbox payment failed');
          return data;
        });
      });
    }

    function reportFailure(description) {
      error.textContent = description;
      error.style.display = 'block';
      if (typeof self.listeners['payment.failed'] === 'function') {
        self.listeners['payment.failed']({ error: { description: description } });
      }
    }

    // Like a card the bank declines: the attempt fails, the window stays open for another try.
    decline.addEventListener('click', function () {
      decline.disabled = true;
      postToSandbox('/sandbox/razorpay/decline')
        .then(function (result) {
          reportFailure(result.error.description);
        })
        .catch(function (failure) {
          reportFailure(failure.message);
        })
        .then(function () {
          decline.disabled = false;
        });
    });

    pay.addEventListener('click', function () {
      pay.disabled = true;
      pay.textContent = 'Processing...';
      postToSandbox('/sandbox/razorpay/pay')
        .then(function (result) {
          self.close();
          if (typeof options.handler === 'function') options.handler(result);
        })
        .catch(function (failure) {
          pay.disabled = false;
          pay.textContent = 'Pay ' + amountText;
          reportFailure(failure.message);
        });
    });
  };

  window.Razorpay = SandboxRazorpay;
})();
